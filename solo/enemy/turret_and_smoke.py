"""The Enemy turret and smoke dischargers: toward the Commander's Target Marker (C2 31.6, 31.7.4, 31.11.2).

:func:`commander_turret_target`: the hex the turret turns toward for the Commander's marker (a
``"turret_jammed"`` damage flag, persistent, keeps it still). :func:`smoke_discharger_hex`: the
hex the smoke dischargers fire into, by the greatest threat among the Commander's Observed
Targets.

May import: :mod:`~solo.enemy.target_markers`, :mod:`~solo.rules.vehicles.crew_sight`, :mod:`solo.rules`,
:mod:`solo.data`, :mod:`solo.core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.core.hexes import Hex, neighbour, wedge_directions
from solo.data.vehicle_types import VehicleKind
from solo.enemy.target_markers import _NO_TARGET
from solo.rules.vehicles.crew_sight import _vehicle_kind, has_light_at, observed_targets
from solo.rules.vehicles.state import Vehicle

if TYPE_CHECKING:
    from solo.rules.context import GameContext


# ---------------------------------------------------------------------------
# Turret (31.6) and smoke dischargers (31.11.2)


def _in_turret_front(game: GameContext, vehicle: Vehicle, hex_: Hex) -> bool:
    if hex_ == vehicle.hex:
        return True
    facing = vehicle.turret if vehicle.turret is not None else vehicle.facing
    return any((d - facing) % 6 == 0 for d in wedge_directions(vehicle.on_hex, hex_, game.board.map.stagger))


def commander_turret_target(game: GameContext, vehicle: Vehicle) -> Hex | None:
    """The hex the turret must turn toward for the Commander's marker, or None (C2 31.6, 31.7.4).

    The Commander's Target Marker hex when he has one, the Gunner has none or one of lower
    priority (a higher ``marker_priority`` number; unknown counts as lowest), and the hex is
    outside the turret's front arc (wedge 0 of the turret facing; a hexspine of the front
    wedge is inside). None for a vehicle without a turret or with ``"turret_jammed"``
    damage. The crew module turns the turret 1 hexside instead of the Gunner's action, when
    his order allows turning (Fire Main Gun or an MG fire order, 31.6).
    """
    if vehicle.turret is None or vehicle.hex is None or "turret_jammed" in vehicle.damage:
        return None
    cmd = vehicle.seats.get("commander")
    if cmd is None or cmd.marker is None:
        return None
    gun = vehicle.seats.get("gunner")
    if gun is not None and gun.marker is not None:
        cp = cmd.marker_priority if cmd.marker_priority is not None else _NO_TARGET
        gp = gun.marker_priority if gun.marker_priority is not None else _NO_TARGET
        if cp >= gp:
            return None
    if _in_turret_front(game, vehicle, cmd.marker):
        return None
    return cmd.marker


def smoke_discharger_hex(game: GameContext, vehicle: Vehicle) -> Hex | None:
    """The hex adjacent to ``vehicle`` for its smoke dischargers (C2 31.11.2), or None.

    The greatest threat among the Commander's Observed Targets
    (:func:`~solo.rules.vehicles.crew_sight.observed_targets`;
    the Commander's marker must be on a threat): 1) an opposing AFV, 2) a Light AT team
    member, 3) infantry (and [house] other vehicles); then the nearest of that rank. The hex
    is the neighbour of the vehicle (on the map) closest to it; ties: the one nearer the
    hull front, then lower direction number [house]. None without a Commander's marker or a
    threat under it.
    """
    if vehicle.hex is None:
        return None
    cmd = vehicle.seats.get("commander")
    if cmd is None or cmd.marker is None:
        return None
    dist = game.distance
    best: tuple[tuple[int, int], Hex] | None = None
    for t in observed_targets(game, vehicle, cmd):
        if isinstance(t, Vehicle):
            rank = 1 if _vehicle_kind(game, t) is VehicleKind.AFV else 3
            h = t.hex
        else:
            rank = 2 if has_light_at(game, t) else 3
            h = t.hex
        if h is None:
            continue
        key = (rank, dist(vehicle.hex, h))
        if best is None or key < best[0]:
            best = (key, h)
    if best is None:
        return None
    threat = best[1]
    stagger = game.board.map.stagger
    options: list[tuple[tuple[int, int, int], Hex]] = []
    for d in range(1, 7):
        n = neighbour(vehicle.hex, d, stagger)
        if n is None or not game.board.map.has_hex(n):
            continue
        turn = min((d - vehicle.facing) % 6, (vehicle.facing - d) % 6)
        options.append(((dist(n, threat), turn, d), n))
    if not options:
        return None
    return min(options, key=lambda o: o[0])[1]


__all__ = [
    "commander_turret_target",
    "smoke_discharger_hex",
]
