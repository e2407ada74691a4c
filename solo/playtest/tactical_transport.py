"""The ``tactical`` policy's transport (issue 13): men ride a Friendly Jeep, Truck or Half-Track
toward a far objective and get off near it (C2 31.11.2 Mount Up and Bail Out, 31.4 driving).

* **Mount Up**: a man on foot with no Known enemy in sight, whose goal is at least RIDE_MIN hexes
  away and one drive brings the vehicle within DROP_RANGE hexes of it, within 1 hex of a
  Stationary transport with a free passenger seat (ties by id, one man a seat) mounts it; its
  Driver stays put (Spot) that turn so the vehicle stays Stationary.
* **Drive**: a transport with passengers drives toward the objective nearest it that no Friendly
  holds (else the nearest Known enemy) at the fastest of SPEEDS whose full move gains enough,
  along the direction string whose full move ends nearest it, never into impassable terrain, a
  minefield (31.5) or within ALERT_RANGE hexes of an Enemy counter (a moving Friendly vehicle
  alerts Waiting enemies, 31.3).
* **Get off**: within DROP_RANGE hexes of that place, with a Known enemy within DROP_DANGER
  hexes, when no speed gains enough, or on the last turn, the Driver stops (Spot) and the
  passengers Bail Out (Impulse 3; from a Stationary vehicle no TQC) toward their goals.

Vehicles without passenger seats (AFVs) and transports nobody rides are left to the fallback
policy. Deterministic: ties by ids, labels and the order of the options; no dice.

May import: what :mod:`solo.playtest.tactical` imports.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solo.core.hexes import Hex
from solo.data.vehicle_types import VehicleKind
from solo.engine.game import Game
from solo.rules.minefields import minefield_hexes
from solo.rules.state import Character, Side
from solo.rules.vehicles.mount_up import MOUNT_REACH, VEHICLE_KEY, free_seats
from solo.rules.vehicles.seats import _vtype
from solo.rules.vehicles.state import CREW_ORDER, Vehicle

RIDE_MIN = 8
"""A man mounts only when his goal is at least this many hexes away, and one drive at the fastest
of SPEEDS (:func:`_best`) brings the vehicle within DROP_RANGE of it (the ride saves the walk)."""
DROP_RANGE = 4
"""Passengers get off when the vehicle is this near its destination..."""
DROP_DANGER = 4
"""... or a Known enemy is this near the vehicle."""
ALERT_RANGE = 5
"""C2 31.3: a moving Friendly vehicle alerts Waiting enemies this near; it keeps farther off."""


def transport(game: Game, ch: Character) -> Vehicle | None:
    """The Friendly Jeep, Truck or Half-Track ``ch`` rides in or drives, if it can carry men."""
    if ch.vehicle is None:
        return None
    v: Vehicle | None = game.state.vehicles.get(ch.vehicle)
    if v is None or not v.is_active or _vtype(game, v).kind is VehicleKind.AFV:
        return None
    return v


def passengers(game: Game, v: Vehicle) -> list[Character]:
    return [game.state.characters[c] for c in v.passenger_ids() if game.state.characters[c].is_active]


def _driver(game: Game, v: Vehicle) -> Character | None:
    seat = v.seats.get("driver")
    c = game.state.characters.get(seat.occupant) if seat is not None and seat.occupant else None
    return c if c is not None and c.is_active else None


def destination(game: Game, v: Vehicle, objectives: list[Hex], known: list[Character]) -> Hex | None:
    """Where a transport with passengers drives: the objective nearest it that no Friendly holds,
    else the nearest Known enemy, else None (ties by label, then id)."""
    held = {c.hex for c in game.state.active(Side.FRIENDLY) if c.vehicle is None}
    free = [h for h in objectives if h not in held]
    if free:
        return min(free, key=lambda h: (game.distance(v.on_hex, h), str(h)))
    if known:
        return min(known, key=lambda e: (game.distance(v.on_hex, e.on_hex), e.id)).hex
    return None


def drop_now(game: Game, v: Vehicle, dest: Hex | None, known: list[Character]) -> bool:
    """Whether the passengers of ``v`` get off this turn (the Driver then stops)."""
    if not passengers(game, v):
        return False
    if dest is None or game.state.flow.turn >= game.scenario.turns or v.immobilized:
        return True
    if game.distance(v.on_hex, dest) <= DROP_RANGE:
        return True
    if any(game.distance(v.on_hex, e.on_hex) <= DROP_DANGER for e in known):
        return True
    return speed(game, v, dest) is None


def riders(game: Game, v: Vehicle, goal_of: Callable[[Character], Hex | None]) -> list[str]:
    """The men on foot who mount ``v`` this turn (ids; at most one per free passenger seat)."""
    if _driver(game, v) is None or v.immobilized or _vtype(game, v).kind is VehicleKind.AFV:
        return []
    seats = [p for p, s in v.seats.items() if p not in CREW_ORDER and p != "cupola" and s.occupant is None]
    if not seats:
        return []
    out = []
    for c in sorted(game.state.active(Side.FRIENDLY), key=lambda c: c.id):
        if c.vehicle is not None or c.hex is None or game.distance(c.on_hex, v.on_hex) > MOUNT_REACH:
            continue
        if c.morale.rank >= 4 or c.trained_medic or not free_seats(game, c, v):
            continue
        if any(e.revealed and e.hex is not None and game.sees(c, e) for e in game.opponents(c)):
            continue
        goal = goal_of(c)
        if goal is None or game.distance(c.hex, goal) < RIDE_MIN:
            continue
        if _best(game, v, goal, ALL_STRINGS, SPEEDS[0][1])[0] > DROP_RANGE:
            continue
        out.append(c.id)
    return out[: len(seats)]


def driver_for(game: Game, v: Vehicle) -> str | None:
    """The man on foot who mounts the empty Driver's seat of Friendly transport ``v`` this turn
    (C2 31.3 Drive skill, 31.11.2 Mount Up): the first by id within 1 hex, Normal or Shaken, not a
    medic, seeing no Known enemy, whom :func:`~solo.rules.vehicles.mount_up.free_seats` offers the
    Driver's seat (his own Driver or a man with the Drive skill); None when the seat is taken, the
    vehicle is an AFV, immobilized or not active."""
    if v.side is not Side.FRIENDLY or not v.is_active or v.immobilized or v.hex is None:
        return None
    if _vtype(game, v).kind is VehicleKind.AFV or "driver" not in v.seats or v.seats["driver"].occupant:
        return None
    for c in sorted(game.state.active(Side.FRIENDLY), key=lambda c: c.id):
        if c.vehicle is not None or c.hex is None or game.distance(c.hex, v.hex) > MOUNT_REACH:
            continue
        if c.morale.rank >= 4 or c.trained_medic or "driver" not in free_seats(game, c, v):
            continue
        if any(e.revealed and e.hex is not None and game.sees(c, e) for e in game.opponents(c)):
            continue
        return c.id
    return None


def mount_key(keys: tuple[str, ...], v: Vehicle, nth: int) -> str | None:
    """The Mount Up target key of ``v``'s ``nth`` offered passenger seat (the rider's place in
    :func:`riders`, so two riders never pick the same seat), else its first, else None."""
    mine = [k for k in keys if k.startswith(f"{VEHICLE_KEY}{v.id}|") and k.split("|", 1)[1] not in CREW_ORDER]
    if not mine:
        return None
    return mine[nth] if nth < len(mine) else mine[0]


def _path_end(game: Game, v: Vehicle, key: str, stop: frozenset[int], hexes: int) -> int | None:
    """The board index where ``hexes`` hexes along direction string ``key`` end for ``v``, or None
    when the path would leave the map, meet impassable terrain (Trees for wheels, 31.5) or enter
    a ``stop`` hex first (the vehicle moves all its speed's hexes, 31.4)."""
    board = game.board
    parts = key.split("/")
    slots = (int(parts[0]), int(parts[-1]))
    wheeled = _vtype(game, v).kind is not VehicleKind.AFV
    cur = board.index[v.on_hex]
    for n in range(hexes):
        nxt = board.neighbours[cur][slots[n % 2]]
        if nxt < 0 or nxt in stop:
            return None
        t = board.terrain_of(board.hexes[nxt])
        if not t.character_passable or (wheeled and not t.wheeled_passable):
            return None
        cur = nxt
    return cur


def _stops(game: Game) -> frozenset[int]:
    """Hexes a transport does not enter: minefields (31.5) and any hex within ALERT_RANGE of an
    Enemy counter, Known or not (a moving Friendly vehicle alerts Waiting enemies, 31.3).

    Kept for the last board and Enemy positions asked about."""
    board = game.board
    enemies = tuple(sorted({board.index[e.hex] for e in game.state.active(Side.ENEMY) if e.hex is not None}))
    key = (enemies, minefield_hexes(game))
    last: tuple[Any, frozenset[int]] | None = board.base.shared.get(_STOPS)  # per board, not per map id
    if last is not None and last[0] == key:
        return last[1]
    cube = board.cube
    near = [cube[i] for i in enemies]
    out = {board.index[h] for h in minefield_hexes(game) if h in board.index}
    for i, (x, y, z) in enumerate(cube):
        if any(max(abs(x - a), abs(y - b), abs(z - c)) <= ALERT_RANGE for a, b, c in near):
            out.add(i)
    stops = frozenset(out)
    board.base.shared[_STOPS] = (key, stops)
    return stops


_STOPS = "tactical_transport.stops"
"""The key in the map's own board's ``shared`` caches of the last :func:`_stops` asked on it
(its key and result): a user map with a shipped map's id gets its own."""


def _best(game: Game, v: Vehicle, dest: Hex, keys: tuple[str, ...], hexes: int) -> tuple[int, int]:
    """(hexes from ``dest`` where the best full path of ``hexes`` hexes ends, its index in ``keys``);
    (99, 0) when no path is clear. Ties by the order of ``keys``."""
    board = game.board
    cube = board.cube
    gx, gy, gz = cube[board.index[dest]]
    stop = _stops(game)
    best = (99, 0)
    for i, key in enumerate(keys):
        end = _path_end(game, v, key, stop, hexes)
        if end is not None:
            x, y, z = cube[end]
            best = min(best, (max(abs(x - gx), abs(y - gy), abs(z - gz)), i))
    return best


ALL_STRINGS = tuple(k for d in range(1, 7) for k in (str(d), f"{d}/{d % 6 + 1}"))
"""The direction strings tried at order time, before the Driver is offered his."""
SPEEDS = (("ahead_slow", 6, 3), ("crawl", 2, 2))
"""(speed order, hexes it moves a turn (C2 31.4), least gain worth taking it), fastest first."""
SPEED_ORDERS = tuple(o for o, _, _ in SPEEDS)


def speed(game: Game, v: Vehicle, dest: Hex) -> str | None:
    """The fastest of SPEEDS whose full move brings ``v`` its gain nearer ``dest`` clear of
    :func:`_stops`, or None (the passengers then get off)."""
    here = game.distance(v.on_hex, dest)
    for order, hexes, gain in SPEEDS:
        if _best(game, v, dest, ALL_STRINGS, hexes)[0] <= here - gain:
            return order
    return None


def drive_direction(game: Game, v: Vehicle, dest: Hex, keys: tuple[str, ...], order: str) -> str:
    """The direction string whose full move at ``order``'s hexes ends nearest ``dest``."""
    hexes = dict((o, h) for o, h, _ in SPEEDS).get(order, 2)
    return keys[_best(game, v, dest, keys, hexes)[1]]
