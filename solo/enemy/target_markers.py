"""Where an Enemy crewman puts his Target Marker: the four priorities of C2 31.7.4 (31.7.3).

:func:`place_enemy_marker`, after his spotting: an active Commander, Gunner or Co-driver of an
Enemy AFV (``MARKER_ROLES``) places or moves his marker on 1) a Friendly vehicle, 2) a Light AT
team member, 3) the hex with the most Spotted Friendly characters in or adjacent, 4) a single
Spotted Friendly, with the TQC of 31.7.3 to move it. Each placement is recorded in
``vehicle.acted[PLACED_KEY]`` (which the End Phase clears; the Emergency Stop of 31.2 (1) reads
the Commander's, :mod:`solo.enemy.emergency_stop`). Markers that lost their target go by
:func:`solo.rules.vehicles.crew_sight.remove_lost_markers` (either side).

May import: :mod:`~solo.enemy.vom`, :mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from solo.core.hexes import Hex, neighbour
from solo.data.vehicle_types import VehicleKind
from solo.rules.state import Character, Side
from solo.rules.vehicles.crew_orders import FIRE_ORDERS
from solo.rules.vehicles.crew_sight import (
    _opposing_characters,
    _opposing_vehicles,
    _role_name,
    _tqc,
    _vehicle_kind,
    clear_marker,
    has_light_at,
    remove_lost_markers,
    seat_sees,
)
from solo.rules.vehicles.markers import _crewmate_marker_on
from solo.rules.vehicles.seats import closed_hatch_spotting
from solo.rules.vehicles.state import Vehicle, vehicle_of

if TYPE_CHECKING:
    from solo.rules.context import GameContext


# ---------------------------------------------------------------------------
# Constants

MARKER_ROLES: tuple[str, ...] = ("commander", "gunner", "co_driver")
"""AFV positions that place Target Markers (Drivers and Loaders do not, C2 31.7.3)."""
PLACED_KEY = "marker_placed"
"""``vehicle.acted`` key: {position: {"turn", "impulse", "hex", "priority", "on"}} of the last
Target Marker placement or move; ``"on"`` is ``"afv"``, ``"vehicle"``, ``"light_at"``,
``"characters"`` or ``"character"`` (C2 31.2 (1) reads the Commander's)."""
_KIND_RANK = {VehicleKind.AFV: 0, VehicleKind.HALF_TRACK: 1, VehicleKind.TRUCK: 2, VehicleKind.JEEP: 3}
_PRIORITY_NAMES = {
    1: "a Friendly vehicle",
    2: "a Light AT weapon",
    3: "the hex with the most Spotted Friendly characters in or adjacent",
    4: "a single Friendly character",
}
_NO_TARGET = 5
"""The effective priority of a marker with nothing observed at it."""


# ---------------------------------------------------------------------------
# Target Markers (31.7.3-31.7.4)


def _now(game: GameContext) -> tuple[int, int]:
    flow = game.state.flow
    return (flow.turn, flow.impulse)


@attrs.frozen
class _Candidate:
    priority: int
    hex: Hex
    count: int
    on: str
    """``afv``, ``vehicle``, ``light_at``, ``characters``, ``character``."""
    label: str


def _marker_tqc_target(
    game: GameContext, vehicle: Vehicle, pos: str, ch: Character, hex_: Hex
) -> tuple[int, list[str]]:
    """TQ for moving a marker to ``hex_``: closed hatch −2 unless negated (with the option
    ``closed_hatch_marker = minus_1``: −1 when a crewmate's marker is on ``hex_``, 31.8; a tank
    Gunner: see the option ``hatchless_gunner_spot``), Spot +1 (C2 31.7.3, 31.7.4 "also modified
    by Open/Closed Hatches, Target Markers and Spot Orders as above")."""
    tq = ch.effective_tq
    parts = [f"TQ {tq}"]
    if closed_hatch_spotting(game, vehicle, pos) and game.options.closed_hatch_marker == "minus_1":
        helper = _crewmate_marker_on(vehicle, ch, hex_, game)
        tq -= 2 if helper is None else 1
        parts.append(
            "closed hatch -2" if helper is None else f"closed hatch -1 ({helper} on the target, 31.8)"
        )
    elif closed_hatch_spotting(game, vehicle, pos):
        negated = _other_marker_near(game, vehicle, pos, hex_)
        if negated:
            parts.append(f"closed hatch -2 negated ({negated})")
        else:
            tq -= 2
            parts.append("closed hatch -2")
    if ch.order is not None and ch.order.order == "spot":
        tq += 1
        parts.append("Spot order +1")
    return tq, parts


def _other_marker_near(game: GameContext, vehicle: Vehicle, pos: str, hex_: Hex) -> str | None:
    """Another crewman's marker (or another AFV Commander's) in or adjacent to ``hex_`` (31.7.3)."""
    dist = game.distance
    for p, s in vehicle.seats.items():
        if p != pos and s.marker is not None and dist(s.marker, hex_) <= 1:
            return f"the {_role_name(p)}'s marker on {s.marker}"
    for v in game.state.vehicles.values():
        if v is vehicle or v.side is not vehicle.side or not v.is_active:
            continue
        s = v.seats.get("commander")
        if s is not None and s.marker is not None and dist(s.marker, hex_) <= 1:
            return f"{v.name}'s Commander's marker on {s.marker}"
    return None


def _candidates(game: GameContext, vehicle: Vehicle, pos: str, ch: Character) -> dict[str, Any]:
    """What the crewman sees, sorted into the 31.7.4 priorities."""
    dist = game.distance
    vh = vehicle.on_hex
    ignore_p1 = pos == "co_driver" or (
        pos == "gunner" and ch.order is not None and ch.order.order in FIRE_ORDERS
    )
    p1: list[tuple[tuple[int, int, int], Vehicle]] = []
    afvs: list[tuple[tuple[int, int], Vehicle]] = []
    for i, v in enumerate(_opposing_vehicles(game, vehicle)):
        if v.hex is None or not seat_sees(game, vehicle, pos, v.hex):
            continue
        k = _vehicle_kind(game, v)
        if k is VehicleKind.AFV:
            afvs.append(((dist(vh, v.on_hex), i), v))
        if not v.on_fire:
            p1.append(((_KIND_RANK[k], dist(vh, v.on_hex), i), v))
    chars = [
        c for c in _opposing_characters(game, vehicle) if seat_sees(game, vehicle, pos, c.on_hex, target=c)
    ]
    return {
        "ignore_p1": ignore_p1,
        "p1": [v for _k, v in sorted(p1, key=lambda t: t[0])],
        "afvs": [v for _k, v in sorted(afvs, key=lambda t: t[0])],
        "chars": chars,
        "light_at": sorted((c for c in chars if has_light_at(game, c)), key=lambda c: dist(vh, c.on_hex)),
    }


def _count_at(game: GameContext, chars: list[Character], hex_: Hex) -> int:
    dist = game.distance
    return sum(1 for c in chars if dist(c.on_hex, hex_) <= 1)


def _best_group_hex(
    game: GameContext, vehicle: Vehicle, pos: str, chars: list[Character]
) -> tuple[Hex, int] | None:
    """The hex in the seat's LOS with the most of ``chars`` in or adjacent (31.7.4 priority 3).

    Ties: more characters on the hex itself, then nearer the vehicle, then hex order [house].
    """
    if not chars:
        return None
    stagger = game.board.map.stagger
    has = game.board.map.has_hex
    cands: dict[Hex, None] = {}
    for c in chars:
        cands[c.on_hex] = None
        for d in range(1, 7):
            n = neighbour(c.on_hex, d, stagger)
            if n is not None and has(n):
                cands[n] = None
    best: tuple[tuple[int, int, int, Hex], Hex, int] | None = None
    for h in cands:
        count = _count_at(game, chars, h)
        on = sum(1 for c in chars if c.hex == h)
        key = (-count, -on, game.distance(vehicle.on_hex, h), h)
        if best is not None and key >= best[0]:
            continue
        if h != vehicle.hex and not seat_sees(game, vehicle, pos, h):
            continue
        best = (key, h, count)
    return (best[1], best[2]) if best is not None else None


def _effective(game: GameContext, vehicle: Vehicle, seen: dict[str, Any], m: Hex) -> tuple[int, int]:
    """The priority (1-4; 5 = nothing) of what is at marker ``m`` now, and the Spotted Friendly
    characters in or adjacent to it."""
    n = _count_at(game, seen["chars"], m)
    if any(v.hex == m for v in (seen["afvs"] if seen["ignore_p1"] else seen["p1"])):
        return 1, n
    if any(c.hex == m for c in seen["light_at"]):
        return 2, n
    if n >= 2:
        return 3, n
    return (4, 1) if n == 1 else (_NO_TARGET, 0)


def _beats(cand: _Candidate, current: tuple[int, int]) -> bool:
    """Whether ``cand`` is worth moving a marker for (31.7.4): a higher priority, or (3) more men."""
    pc, cc = current
    if cand.priority == 3:
        return pc >= 3 and cand.count > cc
    return cand.priority < pc


def place_enemy_marker(game: GameContext, ch: Character) -> None:
    """Place or move an Enemy crewman's Target Marker after his spotting (C2 31.7.3-31.7.4).

    Only an active Commander, Gunner or Co-driver of an Enemy AFV (Drivers and Loaders use
    no markers, 31.7.3); a Panicked one loses his marker instead. A marker with nothing in
    his LOS is removed first (:func:`~solo.rules.vehicles.crew_sight.remove_lost_markers`). The
    candidates in his seat's LOS (:func:`~solo.rules.vehicles.crew_sight.seat_sees`), by priority:

    1. a Friendly vehicle not abandoned, destroyed or on fire (no spotting roll; an AFV
       before other kinds, then the nearest [house]); the Co-driver and a Gunner with an MG
       fire order (the coaxial MG) ignore it -- but anyone without a marker and with an
       opposing AFV in LOS places it there without a roll;
    2. a Spotted Friendly with a Light AT weapon (operator or assistant:
       :func:`~solo.rules.vehicles.crew_sight.has_light_at`), the nearest;
    3. the hex in LOS with the most Spotted Friendly characters in or adjacent (more than at
       the marker now; ties: more on the hex, nearer, hex order [house]); without a marker
       only for two or more, else
    4. a single Spotted Friendly character, only without a marker.

    Without a marker the best candidate is placed, no roll. With one, it moves only to a
    candidate of higher priority than what is at the marker now (or, priority 3, covering
    more characters) and on a passed TQC: d10 <= TQ − 2 for a closed hatch (BU; negated by
    another crewman's marker, or another Enemy AFV Commander's, in or adjacent to the
    target), + 1 with a Spot order; a natural 9 fails; a priority-3 move of 1 hex needs no
    roll. Sets ``seat.marker`` and ``seat.marker_priority``, records the placement in
    ``vehicle.acted[PLACED_KEY]`` (for 31.2) and emits one ``target_marker`` event naming
    the priority and the TQC. Nothing to do: no event.
    """
    vehicle = vehicle_of(game.state, ch)
    if vehicle is None or vehicle.side is not Side.ENEMY or ch.seat not in MARKER_ROLES or not ch.is_active:
        return
    if vehicle.hex is None or _vehicle_kind(game, vehicle) is not VehicleKind.AFV:
        return
    pos = ch.seat
    seat = vehicle.seats[pos]
    if ch.order is not None and ch.order.order == "panic":
        if seat.marker is not None:
            clear_marker(game, ch, "he Panics", "31.7.4, 31.10.9")
        return
    remove_lost_markers(game, vehicle, positions=(pos,))
    seen = _candidates(game, vehicle, pos, ch)
    current = seat.marker
    cand = _best_candidate(game, vehicle, pos, seen, has_marker=current is not None)
    if cand is None:
        return
    role = _role_name(pos)
    if current is None:
        _put_marker(game, vehicle, ch, cand, None, None)
        return
    now = _effective(game, vehicle, seen, current)
    if cand.hex == current or not _beats(cand, now):
        return
    at_marker = (
        f"at the marker now: {'nothing' if now[0] == _NO_TARGET else f'priority {now[0]}'}, "
        f"{now[1]} Spotted character{'s' if now[1] != 1 else ''} in or adjacent"
    )
    cand = attrs.evolve(cand, label=f"{cand.label}; {at_marker}")
    if cand.priority == 3 and game.distance(current, cand.hex) == 1:
        _put_marker(game, vehicle, ch, cand, current, {"automatic": "a move of 1 hex needs no TQC (31.7.4)"})
        return
    target, parts = _marker_tqc_target(game, vehicle, pos, ch, cand.hex)
    roll, ok = _tqc(
        game,
        target,
        f"TQC: {ch.name} ({role}) moves his Target Marker to {cand.hex}, priority {cand.priority} (31.7.4)",
    )
    tqc = {"roll": roll, "target": target, "parts": parts, "passed": ok}
    if ok:
        _put_marker(game, vehicle, ch, cand, current, tqc)
        return
    verdict = "natural 9: fails" if roll == 9 else "fails"
    game.emit(
        "target_marker",
        f"{ch.name} ({role}, {vehicle.name}) sees priority {cand.priority} ({cand.label}) at {cand.hex}: "
        f"TQC d10 {roll} vs {' '.join(parts)} = {target} → {verdict}; his Target Marker stays on {current} "
        "(31.7.4).",
        rule="31.7.4, 31.7.3",
        actor=ch.id,
        data={
            "vehicle": vehicle.id,
            "position": pos,
            "priority": cand.priority,
            "hex": str(current),
            "moved": False,
            "candidate": str(cand.hex),
            "tqc": tqc,
        },
    )


def _best_candidate(
    game: GameContext, vehicle: Vehicle, pos: str, seen: dict[str, Any], *, has_marker: bool
) -> _Candidate | None:
    if not seen["ignore_p1"] and seen["p1"]:
        v = seen["p1"][0]
        on = "afv" if _vehicle_kind(game, v) is VehicleKind.AFV else "vehicle"
        return _Candidate(1, v.hex, 0, on, f"{_PRIORITY_NAMES[1]}: {v.name}")
    if seen["ignore_p1"] and not has_marker and seen["afvs"]:
        v = seen["afvs"][0]
        return _Candidate(1, v.hex, 0, "afv", f"an opposing AFV, {v.name}, with no marker on the board")
    if seen["light_at"]:
        c = seen["light_at"][0]
        return _Candidate(2, c.hex, 0, "light_at", f"{_PRIORITY_NAMES[2]}: {c.name}")
    chars = seen["chars"]
    group = _best_group_hex(game, vehicle, pos, chars)
    if group is None:
        return None
    h, count = group
    if has_marker or count >= 2:
        names = ", ".join(c.name for c in chars if game.distance(c.hex, h) <= 1)
        pr = 3 if count >= 2 or has_marker else 4
        return _Candidate(pr, h, count, "characters", f"{_PRIORITY_NAMES[3]} ({count}: {names})")
    nearest = min(chars, key=lambda c: game.distance(vehicle.on_hex, c.on_hex))
    return _Candidate(4, nearest.hex, 1, "character", f"{_PRIORITY_NAMES[4]}: {nearest.name}")


def _put_marker(
    game: GameContext,
    vehicle: Vehicle,
    ch: Character,
    cand: _Candidate,
    previous: Hex | None,
    tqc: dict[str, Any] | None,
) -> None:
    pos = ch.in_seat
    seat = vehicle.seats[pos]
    seat.marker = cand.hex
    seat.marker_priority = cand.priority
    turn, impulse = _now(game)
    vehicle.acted.setdefault(PLACED_KEY, {})[pos] = {
        "turn": turn,
        "impulse": impulse,
        "hex": cand.hex,
        "priority": cand.priority,
        "on": cand.on,
    }
    role = _role_name(pos)
    if previous is None:
        how = "no roll: he had no marker on the board"
        verb = f"places his Target Marker on {cand.hex}"
    elif tqc is not None and "automatic" in tqc:
        how, verb = tqc["automatic"], f"moves his Target Marker from {previous} to {cand.hex}"
    else:
        assert tqc is not None
        how = f"TQC d10 {tqc['roll']} vs {' '.join(tqc['parts'])} = {tqc['target']}: passed"
        verb = f"moves his Target Marker from {previous} to {cand.hex}"
    game.emit(
        "target_marker",
        f"{ch.name} ({role}, {vehicle.name}) {verb}: priority {cand.priority}, {cand.label} ({how}) "
        "(31.7.4).",
        rule="31.7.4",
        actor=ch.id,
        data={
            "vehicle": vehicle.id,
            "position": pos,
            "priority": cand.priority,
            "hex": str(cand.hex),
            "previous": str(previous) if previous is not None else None,
            "on": cand.on,
            "count": cand.count,
            "moved": True,
            "tqc": tqc,
        },
    )


__all__ = [
    "MARKER_ROLES",
    "PLACED_KEY",
    "place_enemy_marker",
]
