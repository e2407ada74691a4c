"""The ``tactical`` policy's Friendly AFVs (a Sherman): its Driver drives toward the fight (C2 31.4).

* **Where**: the nearest Known enemy (ties by id), else the objective nearest the AFV that no
  Friendly on foot holds (ties by label), else nowhere (the Driver Spots).
* **Stop to shoot**: with a Known enemy the Driver sees within STANDOFF hexes, within STANDOFF of
  the Known enemy it drives to or next to the objective, the Driver Spots (a Stationary vehicle
  fires best); the gunner and the other crew then fire (the fallback gives the gun and MG orders).
* **Speed**: else the fastest of :data:`~solo.playtest.tactical_transport.SPEEDS` (Ahead Slow,
  Crawl) whose full move gains enough on it, along the direction string whose full move ends
  nearest it; never through impassable terrain, a minefield (31.5) or an Enemy counter's hex.
  (:class:`~solo.playtest.tactical.TacticalPolicy` does not try again from the same hex a
  direction that left the AFV standing.)
* **Face**: offered a free hexside turn (C2 31.4), it turns toward where it goes (:func:`free_turn`).
* **Turret**: the Gunner, asked whether to turn the turret (C2 31.6), turns it one hexside toward
  the best target (:func:`gun_target`: the Enemy vehicle that threatens most, else the nearest hex
  of Known enemies, in his sight and the main gun's range) when it lies outside the turret's front
  arc, where the main gun cannot fire (31.9.4 d); else he keeps it (:func:`turret_turn`). The
  other crew decisions (Target Markers, the guns' orders) go to the fallback policy.

Reads only what the player sees (Known enemies, the map) and never rolls; ties by ids, labels and
the order of the options. May import: what :mod:`solo.playtest.tactical` imports.
"""

from __future__ import annotations

from solo.core.hexes import Arc, Hex, arc_of, turn_steps, wedge_directions
from solo.data.vehicle_types import VehicleKind
from solo.engine.game import Game
from solo.playtest import tactical_bazooka as tb
from solo.playtest import tactical_transport as tt
from solo.rules.minefields import minefield_hexes
from solo.rules.state import Character, Side
from solo.rules.vehicles.seats import _vtype
from solo.rules.vehicles.state import Vehicle

STANDOFF = 6
"""Hexes from a seen Known enemy (or the place it drives to) at which the AFV stops to fire."""


def afv(game: Game, ch: Character) -> Vehicle | None:
    """The active Friendly AFV ``ch`` crews, or None."""
    if ch.vehicle is None:
        return None
    v: Vehicle | None = game.state.vehicles.get(ch.vehicle)
    if v is None or v.side is not Side.FRIENDLY or not v.is_active or v.hex is None:
        return None
    return v if _vtype(game, v).kind is VehicleKind.AFV else None


def destination(game: Game, v: Vehicle, objectives: list[Hex]) -> Hex | None:
    """Where the AFV drives: the nearest Known enemy, else the nearest objective no Friendly on foot
    holds, else None (ties by id, then label)."""
    known = [e for e in game.state.active(Side.ENEMY) if e.revealed and e.hex is not None]
    if known:
        return min(known, key=lambda e: (game.distance(v.on_hex, e.on_hex), e.id)).hex
    held = {c.hex for c in game.state.active(Side.FRIENDLY) if c.vehicle is None}
    free = [h for h in objectives if h not in held]
    if free:
        return min(free, key=lambda h: (game.distance(v.on_hex, h), str(h)))
    return None


def known_hexes(game: Game) -> list[Hex]:
    """The hexes of Known enemies on the map."""
    return [e.hex for e in game.state.active(Side.ENEMY) if e.revealed and e.hex is not None]


def _stops(game: Game) -> frozenset[int]:
    """Hexes an AFV does not drive into: minefields (31.5) and Enemy counters' hexes."""
    board = game.board
    out = {board.index[h] for h in minefield_hexes(game) if h in board.index}
    out |= {board.index[e.hex] for e in game.state.active(Side.ENEMY) if e.hex is not None}
    return frozenset(out)


def _best(game: Game, v: Vehicle, dest: Hex, keys: tuple[str, ...], hexes: int) -> tuple[int, int]:
    """(hexes from ``dest`` where the best full path of ``hexes`` hexes ends, its index in ``keys``);
    (99, 0) when no path is clear. Ties by the order of ``keys``."""
    stop = _stops(game)
    best = (99, 0)
    for i, key in enumerate(keys):
        end = tt._path_end(game, v, key, stop, hexes)
        if end is not None:
            best = min(best, (game.distance(game.board.hexes[end], dest), i))
    return best


def sees_a_target(game: Game, driver: Character, v: Vehicle) -> bool:
    """Whether the crew (by its Driver's sight) sees a Known enemy within STANDOFF hexes."""
    return any(
        e.revealed
        and e.hex is not None
        and game.distance(v.on_hex, e.hex) <= STANDOFF
        and game.sees(driver, e)
        for e in game.state.active(Side.ENEMY)
    )


def driver_order(
    game: Game, driver: Character, v: Vehicle, objectives: list[Hex], keys: tuple[str, ...]
) -> str | None:
    """The Driver's order (Spot, Ahead Slow or Crawl; see the module docstring), or None."""
    if v.immobilized:
        return None
    dest = destination(game, v, objectives)
    if dest is None or sees_a_target(game, driver, v):
        return "spot" if "spot" in keys else None
    here = game.distance(v.on_hex, dest)
    if here <= (STANDOFF if dest in known_hexes(game) else 1):
        return "spot" if "spot" in keys else None
    for order, hexes, gain in tt.SPEEDS:
        if order in keys and _best(game, v, dest, tt.ALL_STRINGS, hexes)[0] <= here - gain:
            return order
    return "spot" if "spot" in keys else None


def drive_direction(
    game: Game, v: Vehicle, objectives: list[Hex], keys: tuple[str, ...], order: str
) -> str | None:
    """The direction string whose full move at ``order``'s hexes ends nearest the destination."""
    dest = destination(game, v, objectives)
    if dest is None:
        return None
    hexes = {o: h for o, h, _ in tt.SPEEDS}.get(order, 2)
    return keys[_best(game, v, dest, keys, hexes)[1]]


def free_turn(game: Game, v: Vehicle, objectives: list[Hex], keys: tuple[str, ...]) -> str | None:
    """The free hexside turn (C2 31.4: ``stay`` or ``turn:N``) that faces the AFV nearest the way
    to its destination (front armour and hull guns toward it); ties by the order of ``keys``."""
    dest = destination(game, v, objectives)
    if dest is None or dest == v.hex or not all(k == "stay" or k.startswith("turn:") for k in keys):
        return None
    want = wedge_directions(v.on_hex, dest, game.board.map.stagger)[0]

    def off(key: str) -> int:
        facing = v.facing if key == "stay" else int(key.partition(":")[2])
        d = abs(facing - want) % 6
        return min(d, 6 - d)

    return min(keys, key=lambda k: (off(k), keys.index(k)))


def gun_target(game: Game, gunner: Character, v: Vehicle) -> Hex | None:
    """The hex the main gun should bear on, among the targets in the Gunner's sight and the main
    gun's range (31.9.4 d): the live Enemy vehicle that threatens most
    (:func:`~solo.playtest.tactical_bazooka.threat`), else a hex of Known enemies on foot; within
    a kind, one in the turret's front arc first (no turn needed), then the most men, the nearest,
    and by id or label. None without a target."""
    gun = _vtype(game, v).main_gun
    if gun is None or v.hex is None:
        return None
    weapon = game.data.weapons.get(gun.weapon)
    stagger = game.board.map.stagger
    turret = v.turret if v.turret is not None else v.facing

    def aimable(h: Hex) -> bool:
        return (
            h != v.hex
            and weapon.band_modifier(game.distance(v.on_hex, h)) is not None
            and game.sight(gunner, h).clear
        )

    def away(h: Hex) -> bool:
        return arc_of(v.on_hex, turret, h, stagger) is not Arc.FRONT

    best: tuple[int, bool, int, int, str, Hex] | None = None
    for w in sorted(game.state.vehicles.values(), key=lambda w: w.id):
        if w.side is not v.side and w.is_active and w.hex is not None and aimable(w.hex):
            cand = (-tb.threat(game, w), away(w.hex), 0, game.distance(v.on_hex, w.hex), w.id, w.hex)
            best = cand if best is None or cand < best else best
    counts: dict[Hex, int] = {}
    for e in game.opponents(gunner):
        if e.revealed and not e.dummy and e.vehicle is None and e.hex is not None:
            counts[e.hex] = counts.get(e.hex, 0) + 1
    for h, n in counts.items():
        if aimable(h):
            cand = (1, away(h), -n, game.distance(v.on_hex, h), str(h), h)
            best = cand if best is None or cand < best else best
    return best[-1] if best is not None else None


def turret_turn(game: Game, gunner: Character, v: Vehicle, keys: tuple[str, ...]) -> str | None:
    """The Gunner's answer to "turn the turret?" (C2 31.6: ``no`` or ``turn_N``, one hexside): toward
    :func:`gun_target` when it lies outside the turret's front arc (the main gun fires only into
    it, 31.9.4 d), the way that brings the turret nearer it (ties by the order of ``keys``); ``no``
    when the target is in the front arc. None (the fallback answers: the engine offers the turn
    toward a Target Marker first) with no target or when ``keys`` are not a turret's."""
    turns = {int(k[5:]): k for k in keys if k.startswith("turn_") and k[5:].isdigit()}
    if "no" not in keys or not turns or len(turns) + 1 != len(keys) or v.turret is None or v.hex is None:
        return None
    target = gun_target(game, gunner, v)
    stagger = game.board.map.stagger
    if target is None:
        return None
    if arc_of(v.hex, v.turret, target, stagger) is Arc.FRONT:
        return "no"
    wants = wedge_directions(v.hex, target, stagger)

    def off(facing: int) -> int:
        return min(abs(turn_steps(facing, d)) for d in wants)

    best = min(turns, key=lambda f: (off(f), keys.index(turns[f])))
    return turns[best] if off(best) < off(v.turret) else "no"
