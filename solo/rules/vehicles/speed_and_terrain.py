"""What the ground lets a vehicle do (C2 27.7, 28.1-28.2, 31.5, 31.11.1): the Enemy Alternate Movement
Direction Table, speed caps by weather and ground, entering terrain and getting Mired, roads.

May import: the rules below it and the rooms below rules."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from solo.core.chance_records import ChanceRecord, Roll
from solo.core.dice import Dice
from solo.core.hexes import Direction, Hex, opposite, turn_steps
from solo.data.cards import DirectionString
from solo.data.maps import Board, side_key
from solo.data.terrain import VehicleEntry
from solo.data.vehicle_types import VehicleKind


@attrs.frozen
class AlternateRow:
    """One row of the Enemy Alternate Movement Direction Table (C2 31.5)."""

    current: tuple[Direction, ...]
    """The current order's direction(s), sorted (``(1,)``; ``(1, 2)`` for ``1/2 or 2/1``)."""
    low: DirectionString
    """The new order direction for a d10 of 0-4."""
    high: DirectionString
    """The new order direction for a d10 of 5-9."""

    def result(self, face: int) -> DirectionString:
        """The new directions for a d10 ``face`` 0-9. Raises :class:`ValueError` outside 0-9."""
        if not 0 <= face <= 9:
            raise ValueError(f"a d10 face is 0-9, got {face}")
        return self.low if face <= 4 else self.high


def _row(current: str, low: str, high: str) -> AlternateRow:
    dirs = tuple(sorted(DirectionString.parse(current).directions))
    return AlternateRow(dirs, DirectionString.parse(low), DirectionString.parse(high))


ALTERNATE_DIRECTIONS: tuple[AlternateRow, ...] = (
    _row("1", "6/1", "2/1"),
    _row("2", "1/2", "3/2"),
    _row("3", "2/3", "4/3"),
    _row("4", "3/4", "5/4"),
    _row("5", "4/5", "6/5"),
    _row("6", "5/6", "1/6"),
    _row("1/2", "6/1", "3/2"),
    _row("2/3", "1/2", "4/3"),
    _row("3/4", "2/3", "5/4"),
    _row("4/5", "3/4", "6/5"),
    _row("5/6", "4/5", "1/6"),
    _row("6/1", "5/6", "2/1"),
)
"""The Enemy Alternate Movement Direction Table exactly as printed in C2 31.5 (rulebook).

Each row is the first row turned, so reading it in map directions gives the same result
as in a rotated Direction Counter's directions."""


_ALTERNATE_BY_KEY: dict[tuple[Direction, ...], AlternateRow] = {r.current: r for r in ALTERNATE_DIRECTIONS}


def alternate_row(directions: DirectionString) -> AlternateRow:
    """The row of :data:`ALTERNATE_DIRECTIONS` for an order's directions (``X/Y`` = ``Y/X``; C2 31.5)."""
    return _ALTERNATE_BY_KEY[tuple(sorted(directions.directions))]


SPEED_ORDERS: tuple[str, ...] = ("crawl", "ahead_slow", "forward", "fast")
"""The forward speed orders, slowest first (C2 31.11.2); Reverse and Emergency Stop are apart."""


@attrs.frozen
class SpeedCap:
    """A weather or ground condition that limits vehicle speed (C2 28.1-28.2)."""

    condition: str
    """``"weather"`` or ``"ground"``."""
    value: str
    """The weather or ground id (``"fog"``, ``"deep_snow"``)."""
    fastest: str
    """The fastest speed order allowed; faster Enemy orders become this one."""
    rule: str


SPEED_CAPS: tuple[SpeedCap, ...] = (
    SpeedCap("weather", "mist", "forward", "C2 28.1"),
    SpeedCap("weather", "fog", "ahead_slow", "C2 28.1"),
    SpeedCap("ground", "mud", "forward", "C2 28.2"),
    SpeedCap("ground", "snow", "forward", "C2 28.2"),
    SpeedCap("ground", "deep_snow", "ahead_slow", "C2 28.2"),
)
"""Mist, Mud, Snow: no Fast (Enemy Fast → Forward); Fog, Deep Snow: no Fast or Forward
(Enemy → Ahead Slow). C2 28.1-28.2 [rulebook]."""


ROAD_REACH = 2
"""Road Orders follow a road ahead or within this many hexsides of the facing (C2 31.11.1)."""


MIRED_FACES: tuple[int, ...] = (8, 9)
"""In Mud, a Jeep or Truck entering a hex without a road is Mired on these d10 faces (C2 28.2)."""


def vehicle_entry(
    board: Board, kind: VehicleKind, hex_: Hex | None, *, blocked: Callable[[Hex], bool] = lambda h: False
) -> VehicleEntry:
    """Whether a vehicle of ``kind`` may enter ``hex_`` (C2 31.5, 27.7, 29.2).

    ``IMPASSABLE`` off the map (``None``), where ``blocked`` says so (Fire), or where the
    terrain or an overlay is impassable for the kind (Jeeps and Trucks: not
    ``wheeled_passable``, which covers Trees and Barbed Wire); ``CRAWL`` for an AFV or
    Half-Track entering Trees; else ``PASS``.
    """
    if hex_ is None or not board.map.has_hex(hex_) or blocked(hex_):
        return VehicleEntry.IMPASSABLE
    types = (board.terrain_of(hex_), *board.overlays_of(hex_))
    if kind.is_wheeled:
        return VehicleEntry.PASS if all(t.wheeled_passable for t in types) else VehicleEntry.IMPASSABLE
    if any(t.vehicles is VehicleEntry.IMPASSABLE for t in types):
        return VehicleEntry.IMPASSABLE
    if any(t.vehicles is VehicleEntry.CRAWL for t in types):
        return VehicleEntry.CRAWL
    return VehicleEntry.PASS


def mired_on_entry(
    board: Board, kind: VehicleKind, hex_: Hex, ground: str, dice: Dice
) -> tuple[bool, Roll | None]:
    """In Mud, roll d10 for a Jeep or Truck that entered ``hex_`` without a road (C2 28.2).

    Returns ``(mired, roll)``: Mired on a d10 of 8 or 9 (:data:`MIRED_FACES`); no roll
    (``(False, None)``) for other kinds, other ground, or a road hex. For use in the
    ``on_enter`` check of :func:`move_impulse`.
    """
    if ground != "mud" or not kind.is_wheeled or board.map.is_road(hex_):
        return (False, None)
    roll = dice.d10(f"mud: is the {kind.value.replace('_', '-')} mired in {hex_}? (C2 28.2)")
    return (roll.total in MIRED_FACES, roll)


def _cap(weather: str, ground: str) -> SpeedCap | None:
    caps = [c for c in SPEED_CAPS if (weather if c.condition == "weather" else ground) == c.value]
    return min(caps, key=lambda c: SPEED_ORDERS.index(c.fastest), default=None)


def forbidden_speeds(weather: str, ground: str) -> tuple[str, ...]:
    """The speed orders vehicles may not use in ``weather`` and ``ground`` (C2 28.1-28.2).

    ``weather`` and ``ground`` are the ids of :class:`solo.data.scenario_format.Weather` and
    :class:`solo.data.scenario_format.Ground` (``"fog"``, ``"deep_snow"``); slowest first.
    """
    cap = _cap(weather, ground)
    if cap is None:
        return ()
    return SPEED_ORDERS[SPEED_ORDERS.index(cap.fastest) + 1 :]


def convert_speed(
    order_id: str, weather: str, ground: str, kind: VehicleKind, is_enemy: bool
) -> tuple[str, str | None]:
    """The speed order a vehicle keeps in ``weather`` and ``ground`` (C2 28.1-28.2).

    Returns ``(order_id, reason)``: Mist, Mud, Snow turn Fast into Forward; Fog and Deep
    Snow turn Fast and Forward into Ahead Slow (the stricter condition wins). ``reason`` is
    ``None`` when the order stands. Every kind of vehicle alike. An Enemy Driver changes
    his order at once (rulebook); a Friendly one may not be given these orders
    (:func:`forbidden_speeds`), and one he already holds when the weather worsens is
    reduced the same way [house].
    """
    cap = _cap(weather, ground)
    if cap is None or order_id not in SPEED_ORDERS:
        return (order_id, None)
    if SPEED_ORDERS.index(order_id) <= SPEED_ORDERS.index(cap.fastest):
        return (order_id, None)
    side = "Enemy" if is_enemy else "Friendly"
    what = f"{cap.condition} {cap.value.replace('_', ' ')}"
    return (
        cap.fastest,
        f"{what}: no {order_id.replace('_', ' ')} for vehicles; {side} {kind.value.replace('_', '-')} "
        f"takes {cap.fastest.replace('_', ' ')} ({cap.rule})",
    )


def _road_links(board: Board) -> frozenset[tuple[Hex, Hex]]:
    links = board.shared.get("vehicle_move.road_links")
    if links is None:
        links = frozenset(board.map.roads)
        board.shared["vehicle_move.road_links"] = links
    return links


def road_direction(
    board: Board, hex_: Hex, facing: Direction, *, reverse: bool = False, dice: Dice | None = None
) -> tuple[Direction | None, tuple[ChanceRecord, ...]]:
    """The direction a vehicle under Road Orders moves in from ``hex_`` (C2 31.11.1).

    The road out of ``hex_`` that lies ahead (behind, in ``reverse``) or within
    :data:`ROAD_REACH` hexsides of it, nearest to straight ahead first; a fork at equal
    angles is a logged random pick (``dice`` needed, else :class:`ValueError`). Returns
    ``(None, ())`` when no road leaves within reach. The road straight behind is never
    taken, so a vehicle does not turn back the way it came.
    """
    front = opposite(facing) if reverse else facing
    links = _road_links(board)
    found: list[tuple[int, Direction]] = []
    for d in (1, 2, 3, 4, 5, 6):
        n = board.neighbour_hex(hex_, d)
        t = turn_steps(front, d)
        if n is not None and abs(t) <= ROAD_REACH and t != 3 and side_key(hex_, n) in links:
            found.append((abs(t), d))
    if not found:
        return (None, ())
    best = min(a for a, _ in found)
    options = [d for a, d in found if a == best]
    if len(options) == 1:
        return (options[0], ())
    if dice is None:
        raise ValueError(f"road fork at {hex_}: dice needed to pick the way")
    pick = dice.choice(options, f"road fork at {hex_}: which road to follow (C2 31.11.1)")
    return (options[pick.index], (pick,))
