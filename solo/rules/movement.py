"""Character movement: orders' tracks, direction slots, the Direction Counter and entering hexes.

Rules (base-rules §4, §6, §11, §16; C2 27.3, 27.7, 28.2, 29.2, 30.0):

* :func:`friendly_order_options` lists the orders a Friendly character may be
  given (the limits of base-rules §4 and C2 27.7, 28.2, 30.0), and
  :func:`forbidden_orders` says why each other one is not legal.
* :func:`move` moves a character hex by hex for one Impulse along the HOUSE
  RULE direction slots of §6: for ``X/Y`` slot A = X and slot B = Y (``X`` alone:
  A = B = X); if the slotted hex cannot be entered the other direction is
  tried, else the character stops for the rest of the Impulse (§6 step 4).
  Enemy directions are read through the nearest Direction Counter
  (:func:`map_direction`); the player's directions are the map's.
* :func:`move_steps` is the same for any list of slots (Run & Gun moving
  instead of firing, 10.04, is the combat module's call).
* :func:`end_of_impulse` gives Duck Back to whoever entered Rough terrain with
  Sprint this Impulse (11.0).

Every character that moves (or tries to and cannot) gets one ``move`` event
per Impulse with the path, the slots read and why it stopped; rolls (barbed
wire TQCs, Direction Counter ties, fleeing medics) are logged by the dice.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from solo.core.hexes import Hex, rotate
from solo.data.cards import DirectionString
from solo.data.friendly_deck import EffectScope, FriendlyCardKind, OrderLimit
from solo.data.orders import Order, OrderFlag, OrderKind, Slot, TrackStep
from solo.data.tables import CheckKind, MoraleState
from solo.data.weapons import Weapon, WeaponFlag, WeaponKind
from solo.rules.spotting import alert as alert_enemy
from solo.rules.spotting import remove_dummy
from solo.rules.state import Side, Status

if TYPE_CHECKING:
    from solo.core.decisions import Decision
    from solo.rules.context import GameContext
    from solo.rules.state import Character

DIRECTION_KEYS: tuple[str, ...] = (
    "1", "2", "3", "4", "5", "6", "1/2", "2/1", "2/3", "3/2", "3/4", "4/3",
    "4/5", "5/4", "5/6", "6/5", "6/1", "1/6",
)  # fmt: skip
"""Every direction string a move order may take: single directions and adjacent pairs (§6)."""

DIRECTION_NAMES: dict[int, str] = {
    1: "up",
    2: "upper right",
    3: "lower right",
    4: "down",
    5: "lower left",
    6: "upper left",
}
"""Plain words for the map directions 1-6 (DESIGN.md: 1 up the map, clockwise)."""

NEVER_GIVEN: tuple[str, ...] = ("waiting", "duck_back")
"""Orders the player never gives in the Order Phase: Waiting is the Enemy's "no order"
(base-rules §4 last row); Duck Back replaces an order during an activation (7.19)."""

SLOW_FORBIDS: tuple[str, ...] = ("rapid_fire",)
"""[house] base-rules §20 Q9 (``slow_forbids``): a Friendly whose every fire weapon is slow
(Kar98k, M1903, Bazooka) may not take these orders."""

FRIENDLY_FORCED_MORALE_ORDERS = True
"""[house] base-rules §20 Q26 (``friendly_forced_morale_orders``): a Routed Friendly may only
Evade (Sneak in Deep Snow); a Berserk one must Charge when he has a chargeable target."""

ENEMY_ENTERS_HIDDEN_HEX = True
"""[house] base-rules §11 mirrored: an Enemy mover may enter the hex of a Hidden Friendly he
does not know is there; the Friendly is Spotted, a melee follows and the mover stops. False:
a Hidden Friendly's hex is simply not enterable for an Enemy mover."""

CONTACT_GIVES_MELEE = True
"""[house] base-rules §11 "a Melee marker is placed": when a mover ends up sharing a hex with
opponents, the mover (unless he Charges: his X on I4 is his melee) and the opponents there
who hold an order take Melee for the rest of the turn."""

SPRINT_ROUGH_KEY = "sprint_rough"
"""``ch.acted`` key: the hex of Rough terrain a Sprinter entered this Impulse (11.0)."""
HEXES_MOVED_KEY = "hexes_moved"
"""``ch.acted`` key: hexes moved this turn (for other modules)."""
COUNTER_TIES_KEY = "direction_counter_ties"
"""``ch.acted`` key: Direction Counter ties already broken this turn, by hex (C2 31.11.2)."""

WIRE_ONLY_ORDER = "sneak"
"""C2 27.7: the only order that may leave a Barbed Wire hex."""
FORTIFIED = "fortified_building"
"""Terrain (or overlay) id of a Fortified Building: never charged (C2 27.2)."""
BOCAGE = "bocage"
"""Hexside feature whose crossing ends the Impulse's move (base-rules §16 hexsides)."""
_FIREARMS = (WeaponKind.RIFLE, WeaponKind.SMG, WeaponKind.PISTOL, WeaponKind.MG, WeaponKind.KNIFE)
_FIRE_ORDERS = ("aimed_fire", "rapid_fire", "suppressive_fire", "run_and_gun")
_AT_ORDERS = ("fire_light_at", "load_light_at")
_GRENADE_KINDS = {
    "grenade": WeaponKind.GRENADE,
    "smoke_grenade": WeaponKind.SMOKE_GRENADE,
    "rifle_grenade": WeaponKind.RIFLE_GRENADE,
}


# ---------------------------------------------------------------------------
# Friendly orders (base-rules §4 limits)


def forbidden_orders(game: GameContext, ch: Character) -> dict[str, str]:
    """Why each character order is not legal for Friendly ``ch`` now: ``{order id: reason}``.

    base-rules §4 "Friendly limits" (wounds; heavy and very heavy weapons;
    Medical Aid for medics; Plan for leaders), §11 (only Melee when sharing a
    hex with an opponent; Charge needs a chargeable Known enemy in reach),
    §12 (grenade orders need the weapon), C2 32.1 (Load Light AT for a Bazooka
    Operator or an Assistant in his hex; Fire Light AT for the Operator), C2 27.7
    (only Sneak leaves Barbed Wire), 28.2 (mud, snow, deep snow), 30.0 (trained medics never fire), the
    played card's order limits, and the [house] Q9 and Q26 rules
    (:data:`SLOW_FORBIDS`, :data:`FRIENDLY_FORCED_MORALE_ORDERS`). Vehicle
    orders are not listed.
    """
    why: dict[str, str] = {}
    orders = [o for o in game.data.orders if o.kind is OrderKind.CHARACTER]
    ids = [o.id for o in orders]
    known = frozenset(ids)  # membership only; ``ids`` keeps the file's order

    def no(order_ids: Sequence[str], reason: str) -> None:
        for oid in order_ids:
            if oid in known:
                why.setdefault(oid, reason)

    no(NEVER_GIVEN, "not an order the player gives (base-rules §4, 7.19)")
    if ch.hex is not None and _opponents_at(game, ch, ch.hex):
        if ch.trained_medic:
            no(ids, "a trained medic never melees (C2 30.0)")
        no([i for i in ids if i != "melee"], "an opponent shares his hex: Melee only (base-rules §11)")
        return why
    no(["melee"], "only when an opponent shares his hex (base-rules §11)")
    if not _prisoner_here(game, ch):
        no(["guard"], "no prisoner in his hex (C2 23.4)")
    # Wounds (base-rules §4).
    if ch.bad_wounds:
        no(["sprint", "run_and_gun", "evade"], "Bad Wound: no Sprint, Run & Gun or Evade (base-rules §4)")
    elif ch.wounds:
        no(["sprint"], "wounded: no Sprint (base-rules §4)")
    # Weapons.
    weapons = _weapons(game, ch)
    for w in weapons:
        if w.has_flag(WeaponFlag.VERY_HEAVY):
            no(
                ["sprint", "run_and_gun"],
                f"very heavy {w.name}: no Sprint or Run & Gun (base-rules §4; C2 32.3)",
            )
        elif w.has_flag(WeaponFlag.HEAVY):
            no(["sprint"], f"heavy {w.name}: no Sprint (base-rules §4; C2 32.3)")
    if ch.trained_medic:
        no(
            [*_FIRE_ORDERS, *_AT_ORDERS, *_GRENADE_KINDS],
            "a trained medic never takes a fire order (C2 30.0)",
        )
        no(["charge"], "a trained medic never melees (C2 30.0)")
    firearms = [w for w in weapons if w.kind in _FIREARMS]
    if not firearms:
        no(_FIRE_ORDERS, "no weapon to fire (base-rules §10)")
    elif all(w.has_flag(WeaponFlag.SLOW) for w in firearms):
        no(SLOW_FORBIDS, "only slow weapons ([house] base-rules §20 Q9)")
    if not any(w.kind is WeaponKind.LIGHT_AT for w in weapons):
        if _bazooka_mate(game, ch) is None:
            no(_AT_ORDERS, "no light anti-tank weapon (C2 32)")
        else:  # the Assistant loads the Operator's Bazooka (C2 32.1)
            no(["fire_light_at"], "the Bazooka is fired by its Operator (C2 32.1)")
    for oid, kind in _GRENADE_KINDS.items():
        if not any(w.kind is kind for w in weapons):
            no([oid], f"no {kind.value.replace('_', ' ')} weapon (base-rules §12)")
    if not (ch.has_skill("medic") or ch.trained_medic):
        no(["medical_aid"], "Medics only (7.14)")
    if ch.ldr < 1:
        no(["plan"], "leaders only: LDR 1 or more ([house] 7.12)")
    if not _casualty_here(game, ch):
        no(["carry_drag"], "no incapacitated comrade in his hex (base-rules §4)")
    # Ground conditions (C2 28.2).
    ground = game.state.ground
    if ground in ("mud", "snow"):
        no(["sprint"], f"{ground}: no Sprint (C2 28.2)")
    elif ground == "deep_snow":
        no(["sprint", "evade", "run_and_gun"], "deep snow: no Sprint, Evade or Run & Gun (C2 28.2)")
    # Charge (base-rules §11).
    if "charge" in ids and "charge" not in why:
        charge = game.data.orders.get("charge")
        if not charge_targets(game, ch, charge):
            no(["charge"], f"no chargeable Known enemy within {_reach(charge)} hexes (base-rules §11)")
    # Barbed wire (C2 27.7): only Sneak leaves the hex.
    if ch.hex is not None and in_wire(game, ch, ch.hex):
        no(
            [o.id for o in orders if o.id != WIRE_ONLY_ORDER and _must_move(o)],
            "in Barbed Wire: only Sneak may leave the hex (C2 27.7)",
        )
    # The played card's order limits (base-rules §4 "cards may add limits", §18).
    played = game.state.cards.played
    if played is not None:
        card = game.data.friendly_deck.card(played)
        eff = card.effect
        if (
            card.kind is FriendlyCardKind.ORDER
            and isinstance(eff, OrderLimit)
            and (eff.team is EffectScope.ALL or eff.team.value == ch.team)
        ):
            no(eff.forbid, f"card {card.id} {card.title} forbids it this turn (§18)")
    # Forced orders of Rout and Berserk men ([house] §20 Q26).
    if FRIENDLY_FORCED_MORALE_ORDERS:
        legal = [i for i in ids if i not in why]
        if ch.morale is MoraleState.ROUT:
            keep = next((i for i in ("evade", "sneak", "hide") if i in legal), None)
            no([i for i in legal if i != keep], "Routed: Evade only ([house] §20 Q26)")
        elif ch.morale is MoraleState.BERSERK and "charge" in legal:
            no([i for i in legal if i != "charge"], "Berserk: he must Charge ([house] §20 Q26)")
    return why


def friendly_order_options(game: GameContext, ch: Character) -> list[tuple[str, str]]:
    """Legal orders for Friendly ``ch``: ``(order id, label)`` in the orders file's order.

    base-rules §4 limits (see :func:`forbidden_orders`). Never empty: if every
    order is forbidden, Hide (the default order, 7.0) is offered.
    """
    why = forbidden_orders(game, ch)
    # s._value_ is s.value without the enum descriptor's cost (a hot list).
    out = [
        (o.id, f"{o.name} [{' '.join(s._value_ for s in o.steps)}]")
        for o in game.data.orders
        if o.kind is OrderKind.CHARACTER and o.id not in why
    ]
    if not out:
        hide = game.data.orders.get("hide")
        out = [(hide.id, f"{hide.name} [{' '.join(s.value for s in hide.steps)}]")]
    return out


def charge_targets(game: GameContext, ch: Character, order: Order | None = None) -> list[Character]:
    """Opponents ``ch`` may Charge: Known (Enemy) or Spotted (Friendly), within reach (§11).

    Reach = the hexes the Charge track moves before its X step (4 in the house
    edition). Never a dummy, never a man in a Fortified Building (C2 27.2),
    never a hex holding two or more opponents (base-rules §11); the
    incapacitated are no targets (C2 23.3). Roster order.
    """
    if ch.hex is None:
        return []
    order = order if order is not None else game.data.orders.get("charge")
    reach = _reach(order)
    out = []
    for o in game.opponents(ch):
        if o.dummy or not o.revealed or o.hex is None:
            continue
        if game.distance(ch.hex, o.hex) > reach or _fortified(game, o.hex):
            continue
        if len(_opponents_at(game, ch, o.hex)) != 1:
            continue
        out.append(o)
    return out


def _reach(order: Order) -> int:
    total = 0
    for step in order.steps:
        if step is TrackStep.MELEE:
            break
        total += step.hexes
    return total


def _must_move(order: Order) -> bool:
    return any(s.must_move for s in order.steps)


def _weapons(game: GameContext, ch: Character) -> list[Weapon]:
    table = game.data.weapons
    return [table.get(cw.weapon) for cw in ch.weapons if cw.weapon in table]


def _bazooka_mate(game: GameContext, ch: Character) -> Character | None:
    """An active man of ``ch``'s side in his hex holding a Bazooka, whom ``ch`` may assist (C2 32.1).

    "A second squad member may act as an assistant": any man of the squad in the Operator's
    hex (as :func:`solo.rules.vehicles.light_at.light_at_step` finds the Bazooka he loads).
    """
    if ch.hex is None:
        return None
    for c in game.state.at(ch.hex):
        if c is ch or c.side is not ch.side or not c.is_active:
            continue
        if any(
            w.kind is WeaponKind.LIGHT_AT and not w.has_flag(WeaponFlag.ONE_SHOT) for w in _weapons(game, c)
        ):
            return c
    return None


def _opponents_at(game: GameContext, ch: Character, h: Hex) -> list[Character]:
    """Active opponents of ``ch`` on ``h`` (the incapacitated are ignored, C2 23.3)."""
    return [o for o in game.opponents(ch) if o.hex == h]


def _prisoner_here(game: GameContext, ch: Character) -> bool:
    return any(
        c.side is ch.side.other and c.status is Status.PRISONER and c.hex == ch.hex
        for c in game.state.characters.values()
    )


def _casualty_here(game: GameContext, ch: Character) -> Character | None:
    for c in game.state.characters.values():
        if c.side is ch.side and c.status is Status.INCAPACITATED and c.hex == ch.hex and c is not ch:
            return c
    return None


def _fortified(game: GameContext, h: Hex) -> bool:
    board = game.board
    return board.terrain_of(h).id == FORTIFIED or any(o.id == FORTIFIED for o in board.overlays_of(h))


# ---------------------------------------------------------------------------
# Directions (base-rules §6)


def needs_direction(order: Order) -> bool:
    """Whether ``order`` moves and so takes a direction string (base-rules §6)."""
    return any(step.hexes for step in order.steps)


def direction_options(game: GameContext, ch: Character) -> list[tuple[str, str]]:
    """Direction strings a Friendly move order may take: 1-6 and the adjacent pairs (§6).

    Strings whose both directions lead at once off the map, into impassable
    terrain or into a Fire hex are dropped (they could never move); if that
    drops every string, all 18 are offered.
    """
    if ch.hex is None:
        return [(k, label) for k, label, _ds in _DIRECTION_CHOICES]
    out = [
        (k, label)
        for k, label, ds in _DIRECTION_CHOICES
        if any(_open_way(game, ch.hex, d) for d in ds.directions)
    ]
    return out or [(k, label) for k, label, _ds in _DIRECTION_CHOICES]


def _choice(key: str) -> tuple[str, str, DirectionString]:
    ds = DirectionString.parse(key)
    a, b = ds.slots
    words = DIRECTION_NAMES[a] if a == b else f"{DIRECTION_NAMES[a]}, then {DIRECTION_NAMES[b]}"
    return key, f"{key} ({words})", ds


_DIRECTION_CHOICES = tuple(_choice(k) for k in DIRECTION_KEYS)


def _open_way(game: GameContext, h: Hex, d: int) -> bool:
    board = game.board
    n = board.neighbours[board.index[h]][d]
    return n >= 0 and _passable(game, board.hexes[n]) and not _burning(game, board.hexes[n])


def parse_directions(key: str) -> DirectionString:
    """A direction-string key (``"5/6"``) as a :class:`DirectionString`. Raises ``ValueError``."""
    return DirectionString.parse(key)


def map_direction(game: GameContext, ch: Character, d: int) -> int:
    """Order direction ``d`` (1-6) of ``ch`` as a map direction, through the Direction Counter.

    base-rules §6: the scenario's Direction Counter nearest ``ch`` turns the
    numbering ``rotation`` hexsides clockwise (counter direction ``d`` points
    to map direction ``d + rotation``). Equally near counters are chosen
    between by a logged random pick (C2 31.11.2), kept for the rest of the
    turn for that hex. Without counters (or off the map) ``d`` is the map's.
    """
    counters = game.scenario.direction_counters
    if not counters or ch.hex is None:
        return d
    rotation = _nearest_counter(game, ch, ch.hex)[1]
    return rotate(d, rotation % 6)


def _nearest_counter(game: GameContext, ch: Character, h: Hex) -> tuple[int, int]:
    """``(index, rotation)`` of the Direction Counter nearest ``h`` (ties by the dice)."""
    counters = game.scenario.direction_counters
    dist = [game.distance(h, Hex.parse(c.hex)) for c in counters]
    best = min(dist)
    near = [i for i, x in enumerate(dist) if x == best]
    if len(near) == 1:
        return near[0], counters[near[0]].rotation
    ties = ch.acted.setdefault(COUNTER_TIES_KEY, {})
    key = str(h)
    if key not in ties:
        labels = [f"counter at {counters[i].hex}" for i in near]
        pick = game.dice.choice(
            labels, f"Direction Counter: {ch.name} at {h} is {best} hexes from {len(near)} (C2 31.11.2)"
        )
        ties[key] = near[pick.index]
        game.emit(
            "direction_counter",
            f"{ch.name} at {h} is {best} hexes from {len(near)} Direction Counters: the one at "
            f"{counters[ties[key]].hex} is picked (C2 31.11.2).",
            rule="base-rules §6; C2 31.11.2",
            actor=ch.id,
            data={
                "hex": key,
                "candidates": [counters[i].hex for i in near],
                "picked": counters[ties[key]].hex,
            },
        )
    i = ties[key]
    return i, counters[i].rotation


# ---------------------------------------------------------------------------
# Entering a hex (base-rules §6 step 5, §11; C2 29.2)


class Entry(enum.Enum):
    """What happens when a mover tries to enter a hex (base-rules §6 step 5)."""

    OK = "ok"
    OFF_MAP = "off the map"
    LEAVES_MAP = "leaves the map (Rout, §5.7)"
    IMPASSABLE = "impassable terrain"
    FIRE = "a Fire hex (C2 29.2)"
    OPPONENT = "an opponent's hex (§11)"
    CHARGE_IN = "charges into an opponent's hex (§11)"
    SURPRISE = "enters an unseen opponent's hex (§11)"

    @property
    def enters(self) -> bool:
        """True if the mover goes in."""
        return self in (Entry.OK, Entry.CHARGE_IN, Entry.SURPRISE)

    @property
    def permanent(self) -> bool:
        """A block that later Impulses of this turn cannot lift (map edge, terrain, fire)."""
        return self in (Entry.OFF_MAP, Entry.IMPASSABLE, Entry.FIRE)


def entry(game: GameContext, ch: Character, order: Order, frm: Hex, d: int) -> tuple[Hex | None, Entry]:
    """May ``ch`` (with ``order``) step from ``frm`` in map direction ``d``? ``(hex, verdict)``.

    base-rules §6 step 5: not off the map (a Routed enemy leaves it when the
    option ``rout_leaves_map`` is on, §5.7), not impassable, not on fire
    (C2 29.2), not holding an opponent: only Charge and Melee enter one, and
    not a hex of two or more or a Fortified Building (§11, C2 27.2); a Friendly
    may walk into an Unknown enemy's hex (and an Enemy into a Hidden
    Friendly's, :data:`ENEMY_ENTERS_HIDDEN_HEX`): the opponents are found.
    """
    board = game.board
    n = board.neighbours[board.index[frm]][d]
    if n < 0:
        if ch.side is Side.ENEMY and ch.morale is MoraleState.ROUT and game.options.rout_leaves_map:
            return None, Entry.LEAVES_MAP
        return None, Entry.OFF_MAP
    to = board.hexes[n]
    if not _passable(game, to):
        return to, Entry.IMPASSABLE
    if _burning(game, to):
        return to, Entry.FIRE
    opp = _opponents_at(game, ch, to)
    if opp:
        if order.id in ("charge", "melee"):
            if len(opp) >= 2 or _fortified(game, to):
                return to, Entry.OPPONENT
            return to, Entry.CHARGE_IN
        if all(not o.revealed for o in opp) and (ch.side is Side.FRIENDLY or ENEMY_ENTERS_HIDDEN_HEX):
            return to, Entry.SURPRISE
        return to, Entry.OPPONENT
    return to, Entry.OK


def _passable(game: GameContext, h: Hex) -> bool:
    board = game.board
    return board.terrain_of(h).character_passable and all(o.character_passable for o in board.overlays_of(h))


def _burning(game: GameContext, h: Hex) -> bool:
    return h in game.state.markers.fire or game.los.has_fire(h)


def has_wire(game: GameContext, h: Hex) -> bool:
    """Whether Barbed Wire lies on ``h`` (C2 27.7), unless a vehicle has flattened it (27.7 rolls)."""
    board = game.board
    wire = board.terrain_of(h).rough_unless_hiding or any(o.rough_unless_hiding for o in board.overlays_of(h))
    return wire and str(h) not in game.state.flags.get("barbed_wire_removed", ())


def in_wire(game: GameContext, ch: Character, h: Hex) -> bool:
    """Whether Barbed Wire binds ``ch`` on ``h``: wire, and no other same-side man there on Hide (C2 27.7)."""
    if not has_wire(game, h):
        return False
    return not any(
        c is not ch and c.side is ch.side and c.order is not None and c.order.order == "hide"
        for c in game.state.active(ch.side)
        if c.hex == h
    )


def is_rough(game: GameContext, ch: Character, frm: Hex | None, to: Hex) -> bool:
    """Whether entering ``to`` (from ``frm``) is entering Rough terrain for ``ch`` (§16; 11.0).

    The terrain or an overlay is Rough (Barbed Wire not when a same-side man
    there is on Hide, C2 27.7); crossing a hedge, wall or bocage hexside counts
    as entering Rough terrain ([house] base-rules §16 hexsides).
    """
    board = game.board
    if board.terrain_of(to).rough:
        return True
    for o in board.overlays_of(to):
        if o.rough and not (o.rough_unless_hiding and not in_wire(game, ch, to)):
            return True
    return frm is not None and board.hexside_feature(frm, to) is not None


# ---------------------------------------------------------------------------
# Moving


def move(game: GameContext, ch: Character, order: Order, step: TrackStep) -> Generator[Decision, str, None]:
    """Move ``ch`` this Impulse by ``order``'s track and direction slots (base-rules §6).

    A Charge with a target (``ch.order.target``) takes the shortest path into
    the target's hex instead ([house] §11). Enemies take every ``m`` step (§6.7);
    a Friendly ``m`` step is the player's choice: a ``MAY_MOVE`` Decision.
    """
    from solo.core.decisions import DecisionKind
    from solo.rules.state import Side

    slots = order.slots(game.state.flow.impulse)
    if step is TrackStep.MAY_MOVE and ch.side is Side.FRIENDLY and slots:
        key = yield game.decision(
            DecisionKind.MAY_MOVE,
            f"{ch.name} ({order.name}): move this Impulse?",
            [
                ("move", f"Move ({ch.order.directions})" if ch.order and ch.order.directions else "Move"),
                ("stay", "Stay in place"),
            ],
            actor=ch.id,
        )
        if key == "stay":
            game.emit(
                "stay",
                f"{ch.name} stays in {ch.hex} (an 'm' step is optional, 6.0).",
                rule="6.0",
                actor=ch.id,
            )
            return
    target = _charge_target(game, ch, order)
    if target is not None:
        _charge(game, ch, order, target, step.hexes)
    else:
        move_steps(game, ch, slots, order=order)


def move_steps(
    game: GameContext, ch: Character, slots: Sequence[Slot], *, order: Order | None = None
) -> tuple[Hex | None, ...]:
    """Move ``ch`` one hex per slot of ``slots`` along his order's direction string (§6).

    Each slot reads its direction (A = X, B = Y of ``X/Y``); a hex that cannot
    be entered makes him try the other direction, else he stops for the rest of
    the Impulse (§6 step 4). Returns the path: the start hex first, then each
    hex entered (``None`` last when a Routed enemy left the map, §5.7); empty
    when he has no hex, no order or no slots.
    Emits one ``move`` event.
    """
    order = order if order is not None else game.order_def(ch)
    if ch.hex is None or not ch.is_active or order is None or not slots:
        return ()
    directions = ch.order.directions if ch.order is not None else None
    run = _Run(game, ch, order, list(slots))
    if directions is None:
        run.stop("no direction string")
    else:
        a, b = directions.slots
        for slot in slots:
            first, second = (a, b) if slot is Slot.A else (b, a)
            if not run.step(first, second, slot):
                break
    run.report()
    return tuple(run.path)


def _charge_target(game: GameContext, ch: Character, order: Order) -> Character | None:
    if order.id != "charge" or ch.order is None or ch.order.target is None:
        return None
    t = game.state.characters.get(ch.order.target)
    if t is None or t.side is ch.side or not t.is_active or t.hex is None:
        return None
    return t


def _charge(game: GameContext, ch: Character, order: Order, target: Character, hexes: int) -> None:
    """A Charge with a target: the shortest path into the target's hex ([house] §11)."""
    run = _Run(game, ch, order, [], charge_target=target)
    for _ in range(hexes):
        if ch.hex is None or not ch.is_active or target.hex is None or ch.hex == target.hex:
            break
        path = shortest_path(game, ch, ch.hex, target.hex)
        if len(path) < 2:
            run.stop(f"no way to {target.name} at {target.hex}")
            break
        d = _direction_between(game, ch.hex, path[1])
        if not run.step_to(d):
            break
    run.report()


def shortest_path(game: GameContext, ch: Character, frm: Hex, goal: Hex) -> list[Hex]:
    """A shortest path of hexes ``ch`` may walk from ``frm`` into ``goal`` ([house] §11 Charge).

    Hexes passed through must be passable, not on fire and free of opponents
    ``ch`` knows of; ties go to the lowest directions (1 first). Returns the
    hexes from ``frm`` to ``goal``, or ``[]`` if there is none.
    """
    board = game.board
    start, end = board.index[frm], board.index[goal]
    if start == end:
        return [frm]
    known = {board.index[o.hex] for o in game.opponents(ch) if o.hex is not None and o.revealed}
    prev: dict[int, int] = {start: -1}
    queue = deque([start])
    nbrs = board.neighbours
    while queue:
        i = queue.popleft()
        for d in (1, 2, 3, 4, 5, 6):
            n = nbrs[i][d]
            if n < 0 or n in prev:
                continue
            h = board.hexes[n]
            if not _passable(game, h) or _burning(game, h):
                continue
            prev[n] = i
            if n == end:
                out = [n]
                while prev[out[-1]] != -1:
                    out.append(prev[out[-1]])
                return [board.hexes[k] for k in reversed(out)]
            if n in known:
                continue
            queue.append(n)
    return []


def _direction_between(game: GameContext, a: Hex, b: Hex) -> int:
    row = game.board.neighbours[game.board.index[a]]
    nb = game.board.index[b]
    return next(d for d in (1, 2, 3, 4, 5, 6) if row[d] == nb)


class _Run:
    """One character's move in one Impulse: the path, the notes, the rules applied."""

    def __init__(
        self,
        game: GameContext,
        ch: Character,
        order: Order,
        slots: list[Slot],
        *,
        charge_target: Character | None = None,
    ) -> None:
        self.game = game
        self.ch = ch
        self.order = order
        self.slots = slots
        self.used: list[str] = []
        self.path: list[Hex | None] = [ch.hex] if ch.hex is not None else []
        self.directions = ch.order.directions if ch.order is not None else None
        self.notes: list[str] = []
        self.rules: list[str] = ["base-rules §6"]
        self.stopped: str | None = None
        self.charge_target = charge_target
        self.mapped: list[int] = []
        self.reported = False

    def rule(self, r: str) -> None:
        if r not in self.rules:
            self.rules.append(r)

    def stop(self, why: str, rule: str | None = None) -> None:
        self.stopped = why
        self.notes.append(why)
        if rule:
            self.rule(rule)

    def _map(self, d: int) -> int:
        if self.ch.side is Side.ENEMY:
            return map_direction(self.game, self.ch, d)
        return d

    def step(self, first: int, second: int, slot: Slot) -> bool:
        """One slot: try ``first`` then ``second`` (order directions). True to go on."""
        game, ch, order = self.game, self.ch, self.order
        frm = ch.hex
        assert frm is not None
        if in_wire(game, ch, frm) and order.id != WIRE_ONLY_ORDER:
            self.stop(f"Barbed Wire at {frm}: only Sneak may leave it", "C2 27.7")
            return False
        tried: list[tuple[int, int, Hex | None, Entry]] = []
        for d in dict.fromkeys((first, second)):
            md = self._map(d)
            to, verdict = entry(game, ch, order, frm, md)
            tried.append((d, md, to, verdict))
            if verdict.enters or verdict is Entry.LEAVES_MAP:
                break
        d, md, to, verdict = tried[-1]
        if not (verdict.enters or verdict is Entry.LEAVES_MAP):
            self._blocked(frm, tried)
            return False
        self.used.append(f"{slot.value}={d}" + (f"→{md}" if md != d else ""))
        if len(tried) > 1:
            self.notes.append(f"slot {slot.value} ({tried[0][0]}) blocked: {tried[0][3].value}; took {d}")
            self.rule("base-rules §6 step 4")
        return self._go(frm, md, to, verdict)

    def step_to(self, md: int) -> bool:
        """A Charge step in map direction ``md`` along the shortest path. True to go on."""
        game, ch, order = self.game, self.ch, self.order
        frm = ch.hex
        assert frm is not None
        if in_wire(game, ch, frm) and order.id != WIRE_ONLY_ORDER:
            self.stop(f"Barbed Wire at {frm}: only Sneak may leave it", "C2 27.7")
            return False
        to, verdict = entry(game, ch, order, frm, md)
        if not verdict.enters:
            self._blocked(frm, [(md, md, to, verdict)])
            return False
        self.used.append(f"charge→{md}")
        return self._go(frm, md, to, verdict)

    def _blocked(self, frm: Hex, tried: list[tuple[int, int, Hex | None, Entry]]) -> None:
        shown = ", ".join(f"{d} ({to if to is not None else 'edge'}: {v.value})" for d, _md, to, v in tried)
        self.stop(f"cannot move from {frm}: {shown}", "base-rules §6 step 4")
        if any(v is Entry.FIRE for *_x, v in tried):
            self.rule("C2 29.2")
            if self.ch.side is Side.ENEMY and not self._could_move_later(frm):
                self.game.set_order(self.ch, "duck_back", source="Fire hex in the way (C2 29.2)")
                self.notes.append("no later Impulse could move him: Duck Back")

    def _could_move_later(self, frm: Hex) -> bool:
        """C2 29.2: could a later Impulse of this turn move him at all from ``frm``?"""
        game, ch, order = self.game, self.ch, self.order
        imp = game.state.flow.impulse
        later = any(
            order.track(j).hexes > 0
            or (order.track(j) is TrackStep.FIRE and order.has_flag(OrderFlag.MOVES_IF_NO_TARGET))
            for j in range(imp + 1, 5)
        )
        if not later or ch.order is None or ch.order.directions is None:
            return False
        for d in dict.fromkeys(ch.order.directions.directions):
            _to, verdict = entry(game, ch, order, frm, self._map(d))
            if not verdict.permanent:
                return True
        return False

    def _go(self, frm: Hex, md: int, to: Hex | None, verdict: Entry) -> bool:
        """Leave ``frm`` (wire TQC) and enter ``to``; the after-effects. True to go on."""
        game, ch, order = self.game, self.ch, self.order
        if in_wire(game, ch, frm):
            roll = game.dice.d10(f"TQC: {ch.name} leaves Barbed Wire at {frm} (C2 27.7)")
            out = game.data.checks.resolve(CheckKind.TQC, roll.total, ch.effective_tq)
            self.rule("C2 27.7")
            if not out.passed:
                self.stop(f"Barbed Wire TQC failed ({roll.total} vs TQ {ch.effective_tq}): stays in {frm}")
                return False
            self.notes.append(f"Barbed Wire TQC passed ({roll.total} vs TQ {ch.effective_tq})")
        if verdict is Entry.LEAVES_MAP:
            # The move is reported while he is still on the board, then he is gone.
            self.path.append(None)
            self.stop("Routed off the map: counts as killed", "§5.7")
            self.report()
            ch.status = Status.ROUTED_OFF
            ch.hex = None
            ch.order = None
            game.emit(
                "routed_off",
                f"{ch.name} routs off the map from {frm}: he counts as killed (§5.7).",
                rule="base-rules §5.7",
                actor=ch.id,
                data={"hex": str(frm)},
            )
            return False
        assert to is not None
        casualty = _casualty_here(game, ch) if order.id == "carry_drag" else None
        if casualty is not None and ch.order is not None and ch.order.target:
            chosen = game.state.characters.get(ch.order.target)
            if chosen is not None and chosen.status is Status.INCAPACITATED and chosen.hex == frm:
                casualty = chosen
        ch.hex = to
        self.path.append(to)
        self.mapped.append(md)
        ch.acted[HEXES_MOVED_KEY] = ch.acted.get(HEXES_MOVED_KEY, 0) + 1
        if casualty is not None:
            casualty.hex = to
            self.notes.append(f"carries {casualty.name}")
        crossed = game.board.hexside_feature(frm, to)
        if order.has_flag(OrderFlag.ROUGH_ENDS_IN_DUCK_BACK) and is_rough(game, ch, frm, to):
            ch.acted[SPRINT_ROUGH_KEY] = str(to)
            self.notes.append(f"Sprint into Rough terrain at {to}: Duck Back at the end of the Impulse")
            self.rule("11.0")
        if verdict in (Entry.CHARGE_IN, Entry.SURPRISE):
            self._contact(to, verdict)
            return False
        if self.charge_target is not None and to == self.charge_target.hex:
            self.stop(f"reaches {self.charge_target.name}")
            return False
        if crossed == BOCAGE:
            self.stop(f"crossed bocage into {to}: move ends", "base-rules §16 hexsides; C2 27.3")
            return False
        if ch.side is Side.ENEMY and game.enemy.duck_back_on_entering(game, ch):
            self.stop(f"Duck Back on entering {to}", "9.4")
            return False
        return True

    def _contact(self, to: Hex, verdict: Entry) -> None:
        """The mover now shares ``to`` with opponents: medics flee, opponents found, melee (§11)."""
        game, ch = self.game, self.ch
        self.rule("base-rules §11")
        for o in _opponents_at(game, ch, to):
            if o.trained_medic:
                _medic_flees(game, o, ch)
                self.rule("C2 30.0")
                if o.side is Side.ENEMY:
                    alert_enemy(game, o, f"{ch.name} entered his hex", "base-rules §11")
        found = []
        for o in _opponents_at(game, ch, to):
            if o.dummy:
                remove_dummy(game, o, f"{ch.name} entered its hex", "base-rules §3, §11")
                continue
            if not o.revealed:
                o.revealed = True
                found.append(o.name)
            if o.side is Side.ENEMY:
                alert_enemy(game, o, f"{ch.name} entered his hex", "base-rules §11")
        left = _opponents_at(game, ch, to)
        what = "charges into" if verdict is Entry.CHARGE_IN else "walks into"
        if not left:
            self.stop(f"{what} {to}: no opponent left there")
            return
        names = ", ".join(o.name for o in left)
        self.stop(
            f"{what} {to} held by {names}" + (f" ({', '.join(found)} found)" if found else "") + ": melee"
        )
        if CONTACT_GIVES_MELEE:
            if ch.order is not None and ch.order.order not in ("charge", "melee"):
                game.set_order(ch, "melee", source=f"entered the hex of {names} (§11)")
            for o in left:
                if o.order is not None and o.order.order != "melee":
                    game.set_order(o, "melee", source=f"{ch.name} entered his hex (§11)")

    def report(self) -> None:
        """Emit the one ``move`` event of this Impulse (once)."""
        game, ch, order = self.game, self.ch, self.order
        if self.reported or (len(self.path) <= 1 and not self.notes):
            return
        self.reported = True
        ds = self.directions
        how = f"{order.name}" + (f" {ds}" if ds is not None else "")
        if self.charge_target is not None:
            how += f" at {self.charge_target.name}"
        imp = game.state.flow.impulse
        shown = " → ".join(str(h) if h is not None else "off the map" for h in self.path)
        moved = len(self.path) > 1
        text = f"{ch.name} ({how}, I{imp}) " + (f"moves {shown}" if moved else f"stays in {shown}")
        if self.used:
            text += f" [slots {' '.join(self.used)}]"
        if self.notes:
            text += "; " + "; ".join(self.notes)
        game.emit(
            "move",
            text + f" ({', '.join(self.rules)}).",
            rule=", ".join(self.rules),
            actor=ch.id,
            data={
                "order": order.id,
                "directions": str(ds) if ds is not None else None,
                "slots": [s.value for s in self.slots],
                "path": [str(h) if h is not None else None for h in self.path],
                "map_directions": self.mapped,
                "stopped": self.stopped,
            },
        )


def _medic_flees(game: GameContext, medic: Character, by: Character) -> None:
    """C2 30.0: a trained medic whose hex an opponent enters moves 1 hex in a d6 direction.

    [house] The d6 is read through the Direction Counter for an Enemy medic;
    if that hex cannot be entered he stays.
    """
    frm = medic.hex
    assert frm is not None
    roll = game.dice.d6(f"{medic.name} flees {by.name} (C2 30.0)")
    md = map_direction(game, medic, roll.total) if medic.side is Side.ENEMY else roll.total
    hide = game.data.orders.get("hide")
    to, verdict = entry(game, medic, hide, frm, md)
    if verdict is Entry.OK and to is not None:
        medic.hex = to
        text = f"{medic.name} (trained medic) flees {by.name}: d6 {roll.total}, moves {frm} → {to} (C2 30.0)."
    else:
        text = (
            f"{medic.name} (trained medic) flees {by.name}: d6 {roll.total}, but {verdict.value}: "
            "he stays ([house] C2 30.0)."
        )
    game.emit(
        "medic_flees",
        text,
        rule="C2 30.0",
        actor=medic.id,
        data={"roll": roll.total, "direction": md, "from": str(frm), "to": str(medic.hex)},
    )


def end_of_impulse(game: GameContext) -> None:
    """Step 4 b): whoever entered Rough terrain with Sprint this Impulse takes Duck Back (11.0)."""
    for ch in game.state.characters.values():
        where = ch.acted.pop(SPRINT_ROUGH_KEY, None)
        if where is None or not ch.is_active or ch.hex is None:
            continue
        if ch.order is None or ch.order.order == "duck_back":
            continue
        was = game.data.orders.get(ch.order.order).name
        game.set_order(ch, "duck_back", source="Sprint into Rough terrain (11.0)")
        game.emit(
            "duck_back",
            f"{ch.name} Sprinted into Rough terrain at {where}: {was} becomes Duck Back (11.0).",
            rule="11.0; base-rules §1 Step 4 b)",
            actor=ch.id,
            data={"hex": where, "was": was},
        )
