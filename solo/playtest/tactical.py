"""The ``tactical`` Friendly policy: plays as a competent squad leader would (issue 13 item 1).

It works toward the scenario's objectives (one man per objective, the rest in support or toward
the exits), moves fast where no Known enemy sees it and Sneaks to Cover under fire, gives Rapid
or Aimed Fire by the weapon's effective WS at the range (base-rules §4, §10), throws grenades
(§12) and Charges (§11) when the odds favour it (4 to 1 against a defender in the Open), Rallies
the Cautious and worse (§7), sends the medic to the wounded (7.14, C2 30.0), keeps the Bazooka
for vehicles and heads around their arcs (C2 32.1), Ducks Back (7.19) a mover caught in the
Open by two or more aimed weapons, and moves out of a Known Enemy MG's fire lane (in its LOS and
range) when another path serves nearly as well (not the Bazooka team: it goes for the vehicle;
not a man whose goal lies in the lane: he must cross it anyway).

It reads only what the player sees (Known enemies, their orders and positions, the map) and
never rolls: every tie is broken by stable ids or the order of the options, so a game played
with it replays from its inputs alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from solo.core.hexes import Hex, opposite
from solo.data.scenario_format import ExitSpec, MapSide
from solo.data.weapons import WeaponKind
from solo.engine.game import Decision, DecisionKind, Game
from solo.playtest import tactical_afv as ta
from solo.playtest import tactical_bazooka as tb
from solo.playtest import tactical_transport as tt
from solo.rules.entering import may_exit
from solo.rules.state import Character, Side, Status
from solo.rules.vehicles.mount_up import VEHICLE_KEY
from solo.rules.vehicles.state import CREW_ORDER, Vehicle

FIREARMS = (WeaponKind.RIFLE, WeaponKind.SMG, WeaponKind.PISTOL, WeaponKind.MG)
"""Weapons a fire order uses (base-rules §10)."""
FIRE_ORDERS = ("aimed_fire", "rapid_fire", "suppressive_fire", "run_and_gun")
"""Orders whose track fires (base-rules §4)."""
RALLY_FROM_RANK = 4
"""Morale rank (0 Berserk .. 6 Rout) from which a man Rallies instead of fighting: Cautious (§7)."""
DUCK_BACK_THREATS = 2
"""A mover in the Open Ducks Back (7.19) when this many Known enemies with fire orders see him."""
DANGER_RANGE = 6
"""Within this many hexes of an Enemy counter a man Sneaks instead of Evading or Sprinting."""
SPRINT_RANGE = 10
"""A man Sprints (fire group 3) only with no Enemy counter or vehicle within this many hexes."""
GRENADE_RANGE = 3
CHARGE_ODDS = 4
"""A man Charges (§11) a defender in the Open when this many more Friendlies than defenders stand
within 1 hex of him (himself included); never one in Cover (measured: issue 13, README Balance)."""
"""Hexes a hand grenade reaches (base-rules §12)."""
MOVE_STEPS = {"evade": 4, "sneak": 2, "sprint": 7, "run_and_gun": 2, "charge": 4}
"""Hexes each move order covers in a turn, to score direction strings (base-rules §6)."""
EXIT_PACE = 3
"""Hexes a turn a man on his way to an exit is reckoned to cover (Evade and Sneak, terrain)."""
EXIT_MARGIN = 3
"""Hexes of spare a man heading for an exit keeps against fire, terrain and Duck Back."""
EXIT_REACH = 4
"""Hexes a turn at most (Evade) a man is reckoned to cover: farther from the exit, he stays."""
MG_LANE_COST = 3
"""Hexes of distance a move gives up to end out of a Known Enemy MG's fire lane (:func:`_mg_lanes`)."""
MG_LANE_RANGE = 20
"""Known MGs farther than this many hexes are not reckoned with (their fire is too weak to matter)."""
_WS = re.compile(r"modified WS (-?\d+)")


def _dist(game: Game, a: Hex, b: Hex) -> int:
    """Hexes from ``a`` to ``b`` by the board's cube coordinates (as ``game.distance``, faster)."""
    board = game.board
    ax, ay, az = board.cube[board.index[a]]
    bx, by, bz = board.cube[board.index[b]]
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def hit_chance(ws: int) -> float:
    """Chance that a d10 (0-9) is at most ``ws``; a natural 9 always misses (C2 23.1)."""
    return min(max(ws + 1, 0), 9) / 10


class TacticalPolicy:
    """A competent squad leader for the Friendly side (see the module docstring).

    Deterministic: no dice, ties by character ids, hex labels or the order of the options.
    """

    name = "tactical"

    def __init__(self, fallback: Callable[[Game, Decision], str] | None = None) -> None:
        self._fallback = fallback or (lambda game, decision: decision.keys[0])
        """Answers the decisions of vehicle crews and passengers (:func:`make_policy` gives ``simple``)."""
        self._orders: dict[str, str] = {}
        """The last order this policy gave each character (to pick its direction)."""
        self._afv_tried: dict[str, tuple[Hex | None, tuple[str, ...]]] = {}
        """By Friendly AFV id: the hex it drove from and the direction strings tried there."""

    def __call__(self, game: Game, decision: Decision) -> str:
        kind = decision.kind
        keys = decision.keys
        ch = game.state.characters.get(decision.actor) if decision.actor else None
        if kind is DecisionKind.PLAY_CARD:
            return min(keys, key=lambda k: (_card_value(game, k), k))
        if kind is DecisionKind.DISCARD:
            return max(keys, key=lambda k: (_card_value(game, k), k))
        if kind is DecisionKind.FIRE_TARGET:
            at = ch is not None and ch.order is not None and ch.order.order == "fire_light_at"
            return (tb.fire_key(game, keys) if at else None) or _fire_target(decision)
        if ch is not None and ch.vehicle is not None:
            return self._aboard(game, ch, decision)
        if ch is None:
            return self._fallback(game, decision)
        if kind is DecisionKind.GIVE_ORDER:
            order = self._order(game, ch, keys)
            if order in ("evade", "sprint", "run_and_gun") and "sneak" in keys and tb.keeps_sneak(game, ch):
                order = "sneak"  # a loaded Bazooka's rocket is lost faster than Sneak (C2 32.1)
            self._orders[ch.id] = order
            return order
        if kind is DecisionKind.ORDER_DIRECTION:
            return self._direction(game, ch, keys)
        if kind is DecisionKind.ORDER_TARGET:
            ride = _ride(game, ch)
            if ride is not None and self._orders.get(ch.id) == "mount_up":
                drive = f"{VEHICLE_KEY}{ride.id}|driver"
                if drive in keys and tt.driver_for(game, ride) == ch.id:
                    return drive
                who = _riders(game, ride)
                nth = who.index(ch.id) if ch.id in who else 0
                return tt.mount_key(keys, ride, nth) or keys[0]
            return _order_target(game, ch, keys)
        if kind is DecisionKind.DUCK_BACK:
            return "yes" if _should_duck(game, ch) and "yes" in keys else "no"
        if kind is DecisionKind.MAY_MOVE:
            goal = _goal(game, ch)
            if goal is not None and goal == ch.hex and goal != _exit_goal(game, ch) and "stay" in keys:
                return "stay"
            return "move" if "move" in keys else keys[0]
        return keys[0]

    def _aboard(self, game: Game, ch: Character, decision: Decision) -> str:
        """A Driver or passenger of a Friendly transport (C2 31.11.2, :mod:`tactical_transport`);
        other crews and vehicles go to the fallback."""
        v = tt.transport(game, ch)
        kind, keys = decision.kind, decision.keys
        if v is None and ch.seat == "driver" and (tank := ta.afv(game, ch)) is not None:
            return self._drive_afv(game, ch, tank, decision)
        if v is None and ch.seat == "gunner" and kind is DecisionKind.ORDER_TARGET:
            tank = ta.afv(game, ch)
            turn = ta.turret_turn(game, ch, tank, keys) if tank is not None else None
            if turn is not None:
                return turn
        if v is None or kind not in (DecisionKind.GIVE_ORDER, DecisionKind.ORDER_DIRECTION):
            return self._fallback(game, decision)
        known = [e for e in game.state.active(Side.ENEMY) if e.revealed and e.hex is not None]
        dest = tt.destination(game, v, _objectives(game), known)
        drop = tt.drop_now(game, v, dest, known)
        if kind is DecisionKind.GIVE_ORDER:
            pick = None
            if ch.seat == "driver":
                if drop or _riders(game, v):
                    pick = "spot"
                elif tt.passengers(game, v) and dest is not None:
                    pick = tt.speed(game, v, dest)
            elif ch.seat not in CREW_ORDER and drop:
                pick = "bail_out"
            if pick is None or pick not in keys:
                self._orders.pop(ch.id, None)
                return self._fallback(game, decision)
            self._orders[ch.id] = pick
            return pick
        order = self._orders.get(ch.id)
        if order in tt.SPEED_ORDERS and dest is not None:
            return tt.drive_direction(game, v, dest, keys, order)
        if order == "bail_out":
            return self._direction(game, ch, keys)
        return self._fallback(game, decision)

    def _drive_afv(self, game: Game, ch: Character, tank: Vehicle, decision: Decision) -> str:
        """The Driver of a Friendly AFV (:mod:`tactical_afv`, C2 31.4); else the fallback."""
        pick: str | None = None
        if decision.kind is DecisionKind.GIVE_ORDER:
            pick = ta.driver_order(game, ch, tank, _objectives(game), decision.keys)
            if pick is None:
                self._orders.pop(ch.id, None)
            else:
                self._orders[ch.id] = pick
        elif decision.kind is DecisionKind.ORDER_DIRECTION and self._orders.get(ch.id) in tt.SPEED_ORDERS:
            # A direction that left the AFV where it stood (terrain the map does not show us as
            # closed) is not tried again from that hex.
            at, tried = self._afv_tried.get(tank.id, (None, ()))
            if at != tank.hex:
                tried = ()
            keys = tuple(k for k in decision.keys if k not in tried) or decision.keys
            pick = ta.drive_direction(game, tank, _objectives(game), keys, self._orders[ch.id])
            if pick is not None:
                self._afv_tried[tank.id] = (tank.hex, (*tried, pick))
        elif decision.kind is DecisionKind.ORDER_TARGET:
            pick = ta.free_turn(game, tank, _objectives(game), decision.keys)
        return pick if pick is not None else self._fallback(game, decision)

    # -- orders ------------------------------------------------------------------------

    def _order(self, game: Game, ch: Character, keys: tuple[str, ...]) -> str:
        def first(*names: str) -> str | None:
            return next((n for n in names if n in keys), None)

        if "melee" in keys:
            return "melee"
        if "mount_up" in keys and _ride(game, ch) is not None:
            return "mount_up"
        if ch.morale.rank >= RALLY_FROM_RANK:
            pick = first("rally", "hide", "sneak", "evade")
            if pick:
                return pick
        if _is_medic(ch) and _patient_here(game, ch) and "medical_aid" in keys:
            return "medical_aid"
        if ch.ammo.value == "no" and "reload" in keys:
            return "reload"
        # The bazooka team (C2 32.1): the Bazooka is for vehicles only (:mod:`tactical_bazooka`).
        pick = tb.bazooka_order(game, ch, keys)
        if pick:
            return pick
        goal = _goal(game, ch)
        visible = _visible_known(game, ch)
        leaving = goal is not None and goal == _exit_goal(game, ch)
        if leaving and (not visible or _dist(game, ch.on_hex, visible[0].on_hex) > 1):
            # On his way out (§19 exits): he moves unless an enemy is next to him.
            near = _counters_near(game, ch, SPRINT_RANGE)
            pick = first("evade", "sneak") if near else first("sprint", "evade", "sneak")
            if pick:
                return pick
        if visible:
            pick = _attack_order(game, ch, keys, visible)
            if pick:
                return pick
        if goal is not None and goal == ch.hex:
            return first("hide", "rally", "sneak") or keys[0]
        threats = _threats(game, ch)
        if threats or _counters_near(game, ch, DANGER_RANGE):
            pick = first("sneak", "evade", "hide")
        elif (
            goal is not None
            and _dist(game, ch.on_hex, goal) > 6
            and not _counters_near(game, ch, SPRINT_RANGE)
        ):
            pick = first("sprint", "evade", "sneak")
        else:
            pick = first("evade", "sneak", "hide")
        return pick or keys[0]

    def _direction(self, game: Game, ch: Character, keys: tuple[str, ...]) -> str:
        """The direction string whose path ends nearest the goal (in Cover when that matters);
        a path stops before an Enemy counter's hex, impassable terrain or the map's edge, unless
        it leaves by the exit the man is heading for (best of all, §19)."""
        goal = _goal(game, ch)
        if goal is None or ch.hex is None:
            return keys[0]
        order = self._orders.get(ch.id, "evade")
        steps = MOVE_STEPS.get(order, 2)
        wants_cover = order == "sneak" or bool(_threats(game, ch))
        board = game.board
        cube = board.cube
        gx, gy, gz = cube[board.index[goal]]
        blocked = {board.index[e.hex] for e in game.opponents(ch) if e.hex is not None}
        start = board.index[ch.hex]
        leaving = goal == _exit_goal(game, ch)
        passable, covered = _board_facts(game)
        # The Bazooka team goes for the vehicle whatever the MG sees (measured: fewer shots else).
        at_team = tb.bazooka(game, ch) is not None or tb.operator_of(game, ch) is not None
        lanes = _mg_lanes(game, ch) if not at_team else _NO_LANES
        if lanes(board.index[goal]):
            # A lane over the goal itself must be crossed to get there: no reason to turn aside
            # (measured: mines_on_the_farm_road, whose farmhouse lies next to the MG).
            lanes = _NO_LANES

        def score(idx_key: tuple[int, str]) -> tuple[int, int, int]:
            i, key = idx_key
            slots = _SLOTS.get(key)
            if slots is None:
                parts = key.split("/")
                slots = _SLOTS[key] = (int(parts[0]), int(parts[-1]))
            cur = start
            for n in range(steps):
                nxt = board.neighbours[cur][slots[n % 2]]
                if nxt < 0 and leaving and may_exit(game, ch, board.hexes[cur], slots[n % 2]):
                    return (-1, -1, i)  # off the map by the exit (§19)
                if nxt < 0 or nxt in blocked:
                    break
                ok = passable.get(nxt)
                if ok is None:
                    ok = passable[nxt] = board.terrain_of(board.hexes[nxt]).character_passable
                if not ok:
                    break
                cur = nxt
            x, y, z = cube[cur]
            dist = max(abs(x - gx), abs(y - gy), abs(z - gz))
            cover = 0
            if wants_cover:
                safe = covered.get(cur)
                if safe is None:
                    safe = covered[cur] = board.is_cover(board.hexes[cur])
                cover = 0 if safe else 2
            lane = MG_LANE_COST if lanes(cur) else 0
            return (dist + cover + lane, dist, i)

        return min(enumerate(keys), key=score)[1]


def _mg_lanes(game: Game, ch: Character) -> Callable[[int], bool]:
    """Whether a hex (board index) lies in a Known Enemy MG's fire lane: within its MG's range and
    in its LOS (base-rules §10); answers kept for this decision."""
    mgs: list[tuple[Character, int]] = []
    if ch.hex is not None:
        for e in _known(game, ch, within=MG_LANE_RANGE):
            for cw in e.weapons:
                w = game.data.weapons.get(cw.weapon) if cw.weapon in game.data.weapons else None
                if w is not None and w.kind is WeaponKind.MG:
                    mgs.append((e, w.max_range))
                    break
    memo: dict[int, bool] = {}

    def in_lane(i: int) -> bool:
        if not mgs:
            return False
        hit = memo.get(i)
        if hit is None:
            h = game.board.hexes[i]
            hit = memo[i] = any(
                _dist(game, e.on_hex, h) <= reach and game.sight(e, h).clear for e, reach in mgs
            )
        return hit

    return in_lane


def _NO_LANES(i: int) -> bool:
    """No hex is in a fire lane (the Bazooka team's moves, :meth:`TacticalPolicy._direction`)."""
    return False


_SLOTS: dict[str, tuple[int, int]] = {}
"""A direction string's two slots (``"5/6"`` → ``(5, 6)``, ``"3"`` → ``(3, 3)``), parsed once."""


def _board_facts(game: Game) -> tuple[dict[int, bool], dict[int, bool]]:
    """``(passable terrain, Cover)`` by hex index of the game's board, filled as asked: kept a
    game and board (``game.memo``; a board is frozen, changed terrain makes a new one)."""
    memo = game.memo.get("tactical_board")
    if memo is None or memo[0] is not game.board:
        memo = game.memo["tactical_board"] = (game.board, {}, {})
    return memo[1], memo[2]


def _riders(game: Game, v: Vehicle) -> list[str]:
    """:func:`tactical_transport.riders` of ``v`` with :func:`_goal`, kept for the last game, turn,
    Impulse and positions asked about (the order phase asks once per man)."""
    flow = game.state.flow
    men = tuple((c.id, c.hex, c.vehicle) for c in game.state.active(Side.FRIENDLY))
    key = (flow.turn, flow.impulse, v.id, v.hex, men)
    if _RIDERS and _RIDERS[0][0] is game and _RIDERS[0][1] == key:
        return _RIDERS[0][2]
    out = tt.riders(game, v, lambda c: _goal(game, c))
    _RIDERS[:] = [(game, key, out)]
    return out


_RIDERS: list[tuple[Game, tuple[Any, ...], list[str]]] = []
"""The last :func:`_riders` (its game, key and result)."""


def _ride(game: Game, ch: Character) -> Vehicle | None:
    """The Friendly transport ``ch`` mounts this turn (:func:`tactical_transport.riders`), or None."""
    if ch.vehicle is not None or ch.hex is None or not game.state.vehicles:
        return None
    for vid in sorted(game.state.vehicles):
        v: Vehicle = game.state.vehicles[vid]
        if v.side is not Side.FRIENDLY or not v.is_active or _dist(game, ch.hex, v.on_hex) > 1:
            continue
        if ch.id in _riders(game, v) or tt.driver_for(game, v) == ch.id:
            return v
    return None


# -- what the player sees -----------------------------------------------------------------


def _known(game: Game, ch: Character, *, within: int = 99) -> list[Character]:
    return [
        e
        for e in game.opponents(ch)
        if e.revealed and e.hex is not None and ch.hex is not None and _dist(game, ch.hex, e.hex) <= within
    ]


def _counters_near(game: Game, ch: Character, within: int) -> list[Character | Vehicle]:
    """Enemy counters (Known or not: the player sees where the '?' stand) and live Enemy vehicles
    within ``within`` hexes."""
    if ch.hex is None:
        return []
    near: list[Character | Vehicle] = [
        e for e in game.opponents(ch) if e.hex is not None and _dist(game, ch.hex, e.hex) <= within
    ]
    for vid in sorted(game.state.vehicles):
        v = game.state.vehicles[vid]
        live = v.side is Side.ENEMY and v.hex is not None and not v.destroyed and not v.abandoned
        if live and _dist(game, ch.hex, v.hex) <= within:
            near.append(v)
    return near


def _visible_known(game: Game, ch: Character) -> list[Character]:
    """Known enemies ``ch`` sees now, nearest first (ties by id)."""
    seen = [e for e in _known(game, ch) if game.sees(ch, e)]
    return sorted(seen, key=lambda e: (_dist(game, ch.on_hex, e.on_hex), e.id))


def _threats(game: Game, ch: Character) -> list[Character]:
    """Known enemies with a fire order who see ``ch`` (their orders are on the map)."""
    return [
        e
        for e in _known(game, ch, within=12)
        if e.order is not None and e.order.order in FIRE_ORDERS and game.sees(e, ch)
    ]


def _is_medic(ch: Character) -> bool:
    return ch.trained_medic or ch.has_skill("medic")


def _wounded(game: Game, ch: Character) -> list[Character]:
    """Friendly comrades with wounds, incapacitated or not, by distance then id."""
    out = [
        c
        for c in game.state.characters.values()
        if c.side is Side.FRIENDLY
        and c.id != ch.id
        and c.hex is not None
        and c.status in (Status.ACTIVE, Status.INCAPACITATED)
        and (c.wounds or c.status is Status.INCAPACITATED)
    ]
    return sorted(out, key=lambda c: (_dist(game, ch.on_hex, c.on_hex), c.id))


def _patient_here(game: Game, ch: Character) -> bool:
    return any(c.hex == ch.hex for c in _wounded(game, ch)) or bool(ch.wounds)


def _weapon_value(game: Game, ch: Character, rng: int) -> tuple[int, int] | None:
    """(best effective WS at ``rng``, its ROF) over ``ch``'s firearms, or None if none reaches."""
    best: tuple[int, int] | None = None
    for cw in ch.weapons:
        w = game.data.weapons.get(cw.weapon)
        if w.kind not in FIREARMS:
            continue
        mod = w.band_modifier(rng)
        if mod is None:
            continue
        eff = (cw.ws + mod, w.rof_at(rng) or 1)
        if best is None or eff > best:
            best = eff
    return best


def _attack_order(game: Game, ch: Character, keys: tuple[str, ...], visible: list[Character]) -> str | None:
    """Charge, grenade, Rapid or Aimed Fire at the Known enemies ``ch`` sees, or None to move."""
    nearest = visible[0]
    rng = _dist(game, ch.on_hex, nearest.on_hex)
    value = _weapon_value(game, ch, rng)
    eff = value[0] if value else -9
    charger = rng <= 2 and ch.morale.rank <= 3 and not ch.bad_wounds
    if "charge" in keys and charger and _charge_favours(game, ch, nearest):
        return "charge"
    if "grenade" in keys and (target := _grenade_hex(game, ch)) is not None:
        crowd = sum(1 for e in _known(game, ch) if e.hex == target)
        if crowd >= 2 or game.board.is_cover(target) or eff <= 3:
            return "grenade"
    if value is None:
        return None
    rof = value[1]
    aimed = 2 * rof * hit_chance(eff) if "aimed_fire" in keys else -1.0
    rapid = 4 * rof * hit_chance(eff - 2) if "rapid_fire" in keys else -1.0
    if max(aimed, rapid) <= 0:
        return "suppressive_fire" if "suppressive_fire" in keys and eff >= 0 else None
    return "rapid_fire" if rapid > aimed else "aimed_fire"


def _charge_favours(game: Game, ch: Character, target: Character) -> bool:
    """Whether the odds favour ``ch`` Charging ``target`` (§11): the target stands in the Open
    (no Cover, no smoke: base-rules §5.4) and the Friendlies within 1 hex of ``ch`` (himself
    included) outnumber the defenders in the target's hex by ``CHARGE_ODDS`` or more."""
    if game.in_cover(target):
        return False
    mates = [
        c
        for c in game.state.active(Side.FRIENDLY)
        if c.hex is not None and _dist(game, c.on_hex, ch.on_hex) <= 1
    ]
    defenders = [e for e in game.opponents(ch) if e.hex == target.hex]
    return len(mates) >= len(defenders) + CHARGE_ODDS


def _grenade_hex(game: Game, ch: Character) -> Hex | None:
    """The hex 1-3 away holding the most Known enemies and no Friendly in or next to it."""
    friends = [c.hex for c in game.state.active(Side.FRIENDLY) if c.hex is not None]
    counts: dict[Hex, int] = {}
    for e in _known(game, ch, within=GRENADE_RANGE):
        if _dist(game, ch.on_hex, e.on_hex) >= 1 and game.sight(ch, e.on_hex).clear:
            counts[e.on_hex] = counts.get(e.on_hex, 0) + 1
    safe = [h for h in counts if all(_dist(game, h, f) > 1 for f in friends)]
    if not safe:
        return None
    return max(safe, key=lambda h: (counts[h], -_dist(game, ch.on_hex, h), str(h)))


def _order_target(game: Game, ch: Character, keys: tuple[str, ...]) -> str:
    """A grenade's hex (the most Known enemies, no Friendly near) or a Charge's enemy (the weakest)."""
    if all(re.fullmatch(r"\d\d\.\d\d", k) for k in keys):
        best = _grenade_hex(game, ch)
        if best is not None and str(best) in keys:
            return str(best)
        return keys[0]
    chars = [game.state.characters[k] for k in keys if k in game.state.characters]
    if chars:
        best_c = max(chars, key=lambda e: (e.morale.rank, -_dist(game, ch.on_hex, e.on_hex), e.id))
        return best_c.id
    return keys[0]


def _fire_target(decision: Decision) -> str:
    """The option with the best modified WS (ties: the first offered); hold only when nothing else."""
    best = None
    for i, o in enumerate(decision.options):
        if o.key == "hold":
            continue
        m = _WS.search(o.label)
        ws = int(m.group(1)) if m else 0
        cand = (ws, -i, o.key)
        if best is None or cand > best:
            best = cand
    return best[2] if best is not None else decision.keys[0]


def _should_duck(game: Game, ch: Character) -> bool:
    """Duck Back (7.19): a man in the Open, not firing, seen by enough Known enemies with fire orders."""
    if ch.order is None or ch.order.order in FIRE_ORDERS or ch.order.order in ("charge", "melee", "grenade"):
        return False
    if game.in_cover(ch):
        return False
    need = 1 if ch.bad_wounds or ch.morale.rank >= 5 else DUCK_BACK_THREATS
    return len(_threats(game, ch)) >= need


# -- where to go ---------------------------------------------------------------------------


def _objectives(game: Game) -> list[Hex]:
    """The scenario's Friendly objective hexes, in its order (read once a game: ``game.memo``)."""
    hexes = game.memo.get("tactical_objectives")
    if hexes is None:
        v = getattr(game.scenario, "victory", None)
        hexes = game.memo["tactical_objectives"] = tuple(
            Hex.parse(o.hex)
            for o in getattr(v, "objectives", ())
            if getattr(o, "side", Side.FRIENDLY) is Side.FRIENDLY
        )
    return list(hexes)


def _goal(game: Game, ch: Character) -> Hex | None:
    """Where ``ch`` heads: a medic to the nearest wounded comrade; the bazooka behind the nearest
    Enemy vehicle; otherwise each objective gets its nearest man (ties by id), the others the
    nearest Known enemy, else the nearest objective, else the Enemy edge. A man with no objective
    heads for a Friendly exit (§19) when it is time (:func:`_exit_goal`)."""
    if ch.hex is None:
        return None
    if _is_medic(ch):
        hurt = _wounded(game, ch)
        if hurt and _dist(game, ch.on_hex, hurt[0].on_hex) <= 8:
            return hurt[0].hex
    mate_at = tb.assistant_goal(game, ch)
    if mate_at is not None:
        return mate_at
    if any(game.data.weapons.get(w.weapon).kind is WeaponKind.LIGHT_AT for w in ch.weapons):
        behind = _behind_vehicle(game, ch)
        if behind is not None:
            return behind
    objectives = _objectives(game)
    held = _assignment(game, objectives).get(ch.id)
    if held is not None:
        return held
    out = _exit_goal(game, ch)
    if out is not None:
        return out
    known = _known(game, ch)
    if known:
        return min(known, key=lambda e: (_dist(game, ch.on_hex, e.on_hex), e.id)).hex
    if objectives:
        return min(objectives, key=lambda h: (_dist(game, ch.on_hex, h), str(h)))
    return _edge_hex(game, game.scenario.edges.enemy, ch.hex)


def _assignment(game: Game, objectives: list[Hex]) -> dict[str, Hex]:
    """Which man takes each objective: the man on it, else the nearest free one (ties by id).

    Kept for the last positions asked about (the order phase asks once per man)."""
    afoot = [c for c in game.state.active(Side.FRIENDLY) if c.vehicle is None]  # all with a hex
    # The key in roster order (a fixed order within a game): sorted only when worked out again.
    key = (game.scenario.id, tuple([(c.id, c.hex) for c in afoot]), tuple(objectives))
    if _ASSIGNED and _ASSIGNED[0][0] == key:
        return _ASSIGNED[0][1]
    men = sorted(afoot, key=lambda c: c.id)
    out: dict[str, Hex] = {}
    for obj in sorted(objectives, key=str):
        holders = [c for c in men if c.hex == obj and c.id not in out]
        free = [c for c in men if c.id not in out]
        if not free:
            break
        pick = holders[0] if holders else min(free, key=lambda c: (_dist(game, c.on_hex, obj), c.id))
        out[pick.id] = obj
    _ASSIGNED[:] = [(key, out)]
    return out


_ASSIGNED: list[tuple[tuple[Any, ...], dict[str, Hex]]] = []
"""The last :func:`_assignment` (its key and result)."""


def _friendly_exits(game: Game) -> list[ExitSpec]:
    """The scenario's Friendly exits worth VP (§19 special rules, ``victory.exits``)."""
    v = getattr(game.scenario, "victory", None)
    return [e for e in getattr(v, "exits", ()) if e.side is Side.FRIENDLY and e.vp > 0]


def _exit_hex(game: Game, ch: Character) -> Hex | None:
    """The nearest hex ``ch`` can leave the map from by a Friendly exit (ties by label), or None."""
    best: tuple[int, str, Hex] | None = None
    for spec in _friendly_exits(game):
        if spec.hexes is not None:
            cands = [Hex.parse(h) for h in spec.hexes.split()]
        elif spec.edge is not None:
            cands = [_edge_hex(game, spec.edge, ch.on_hex)]
        else:
            continue
        for h in cands:
            if h in game.board.index:
                cand = (_dist(game, ch.on_hex, h), str(h), h)
                if best is None or cand[:2] < best[:2]:
                    best = cand
    return best[2] if best is not None else None


def _exit_goal(game: Game, ch: Character) -> Hex | None:
    """The exit hex when leaving is worth more than staying (§19 exits), else None.

    A man without an objective leaves when an exit is worth at least a kill (the most he is
    likely to add by staying, and off the map he cannot become a casualty), he can still make it
    (EXIT_REACH hexes a turn, this turn included) and the turns left, at EXIT_PACE hexes a turn,
    are no more than he needs plus EXIT_MARGIN."""
    if ch.hex is None or not getattr(getattr(game.scenario, "victory", None), "exits", ()):
        return None
    key = (game.state.flow.turn, ch.id, ch.hex)
    memo = _EXIT_MEMO.get(id(game))
    if memo is None or memo[0] is not game:
        memo = (game, {})
        _EXIT_MEMO.clear()
        _EXIT_MEMO[id(game)] = memo
    if key not in memo[1]:
        memo[1][key] = _exit_goal_now(game, ch)
    return memo[1][key]


_EXIT_MEMO: dict[int, tuple[Game, dict[Any, Hex | None]]] = {}
""":func:`_exit_goal` answers for the last game, by (turn, character id, hex)."""


def _exit_goal_now(game: Game, ch: Character) -> Hex | None:
    exits = _friendly_exits(game)
    if not exits:
        return None
    values = getattr(game.scenario, "victory", None)
    if max(e.vp for e in exits) < getattr(values, "kill", 1):
        return None
    h = _exit_hex(game, ch)
    if h is None:
        return None
    left = game.scenario.turns - game.state.flow.turn + 1
    need = _dist(game, ch.on_hex, h) + 1
    if need > left * EXIT_REACH or left * EXIT_PACE > need + EXIT_MARGIN:
        return None
    return h


def _behind_vehicle(game: Game, ch: Character) -> Hex | None:
    """Two hexes behind the nearest Enemy vehicle (its rear arc, C2 32.1), or its own hex."""
    live: list[Vehicle] = [
        v
        for v in game.state.vehicles.values()
        if v.side is Side.ENEMY and v.hex is not None and not v.destroyed and not v.abandoned
    ]
    if not live:
        return None
    v = min(live, key=lambda v: (_dist(game, ch.on_hex, v.on_hex), v.id))
    h = v.on_hex
    for _ in range(2):
        n = game.board.neighbour_hex(h, opposite(v.facing))
        if n is None:
            break
        h = n
    return h


def _edge_hex(game: Game, side: MapSide, near: Hex) -> Hex:
    """The hex of map side ``side`` nearest ``near`` (ties by label)."""
    lines = game.board.base.shared.setdefault(_EDGE_LINES, {})  # per board, not per map id
    key = side.value
    line: tuple[Hex, ...] | None = lines.get(key)
    if line is None:
        hexes = game.board.hexes
        if side in (MapSide.NORTH, MapSide.SOUTH):
            pick = min if side is MapSide.NORTH else max
            ends: dict[int, int] = {}
            for h in hexes:
                ends[h.col] = pick(ends.get(h.col, h.row), h.row)
            line = tuple(h for h in hexes if ends[h.col] == h.row)
        else:
            col = (min if side is MapSide.WEST else max)(h.col for h in hexes)
            line = tuple(h for h in hexes if h.col == col)
        lines[key] = line
    return min(line, key=lambda h: (_dist(game, near, h), str(h)))


_EDGE_LINES = "tactical.edge_lines"
"""The key in the map's own board's ``shared`` caches of the hexes along each map side (by
side; built on first use): a user map with a shipped map's id gets its own."""


def _card_value(game: Game, card_id: str) -> int:
    c = game.data.friendly_deck.card(card_id)
    if c.initiatives is None:
        return 1000  # keep Event cards for last
    return c.initiatives.able + c.initiatives.baker + c.initiatives.charlie
