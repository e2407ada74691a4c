"""The Friendly player's orders (base-rules §4): which orders a character may be given now and why
others are forbidden; Charge targets.

May import: the rules below it and the rooms below rules."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from solo.data.friendly_deck import EffectScope, FriendlyCardKind, OrderLimit
from solo.data.orders import Order, OrderKind, TrackStep
from solo.data.tables import MoraleState
from solo.data.weapons import Weapon, WeaponFlag, WeaponKind
from solo.rules.context import GameContext
from solo.rules.entering import WIRE_ONLY_ORDER, _casualty_here, _fortified, in_wire
from solo.rules.state import Character, Status

NEVER_GIVEN: tuple[str, ...] = ("waiting", "duck_back")
"""Orders the player never gives in the Order Phase: Waiting is the Enemy's "no order"
(base-rules §4 last row); Duck Back replaces an order during an activation (7.19)."""
SLOW_FORBIDS: tuple[str, ...] = ("rapid_fire",)
"""[house] base-rules §20 Q9 (``slow_forbids``): a Friendly whose every fire weapon is slow
(Kar98k, M1903, Bazooka) may not take these orders."""
FRIENDLY_FORCED_MORALE_ORDERS = True
"""[house] base-rules §20 Q26 (``friendly_forced_morale_orders``): a Routed Friendly may only
Evade (Sneak in Deep Snow); a Berserk one must Charge when he has a chargeable target."""
_FIREARMS = (WeaponKind.RIFLE, WeaponKind.SMG, WeaponKind.PISTOL, WeaponKind.MG, WeaponKind.KNIFE)
_FIRE_ORDERS = ("aimed_fire", "rapid_fire", "suppressive_fire", "run_and_gun")
_AT_ORDERS = ("fire_light_at", "load_light_at")
_GRENADE_KINDS = {
    "grenade": WeaponKind.GRENADE,
    "smoke_grenade": WeaponKind.SMOKE_GRENADE,
    "rifle_grenade": WeaponKind.RIFLE_GRENADE,
}


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
    orders, ids, known, _labels = _character_orders(game)

    def no(order_ids: Sequence[str], reason: str) -> None:
        for oid in order_ids:
            if oid in known:
                why.setdefault(oid, reason)

    no(NEVER_GIVEN, "not an order the player gives (base-rules §4, 7.19)")
    h = ch.hex
    # The men on his hex, roster order: one pass over the roster for every "in his hex" rule.
    here = [c for c in game.state.characters.values() if c.hex == h]
    other, active = ch.side.other, Status.ACTIVE
    if h is not None and any(c.side is other and c.status is active for c in here):  # _opponents_at
        if ch.trained_medic:
            no(ids, "a trained medic never melees (C2 30.0)")
        no([i for i in ids if i != "melee"], "an opponent shares his hex: Melee only (base-rules §11)")
        return why
    no(["melee"], "only when an opponent shares his hex (base-rules §11)")
    if not any(c.status is Status.PRISONER and c.side is other for c in here):
        no(["guard"], "no prisoner in his hex (C2 23.4)")
    # Wounds (base-rules §4).
    if ch.bad_wounds:
        no(["sprint", "run_and_gun", "evade"], "Bad Wound: no Sprint, Run & Gun or Evade (base-rules §4)")
    elif ch.wounds:
        no(["sprint"], "wounded: no Sprint (base-rules §4)")
    # Weapons (what they forbid is worked out once per set of weapons carried: _armament).
    arms = _armament(game, ch)
    for order_ids, reason in arms.heavy:
        no(order_ids, reason)
    if ch.trained_medic:
        no(
            [*_FIRE_ORDERS, *_AT_ORDERS, *_GRENADE_KINDS],
            "a trained medic never takes a fire order (C2 30.0)",
        )
        no(["charge"], "a trained medic never melees (C2 30.0)")
    if arms.no_firearms:
        no(_FIRE_ORDERS, "no weapon to fire (base-rules §10)")
    elif arms.only_slow:
        no(SLOW_FORBIDS, "only slow weapons ([house] base-rules §20 Q9)")
    if not arms.light_at:
        if _bazooka_mate(game, ch, here) is None:
            no(_AT_ORDERS, "no light anti-tank weapon (C2 32)")
        else:  # the Assistant loads the Operator's Bazooka (C2 32.1)
            no(["fire_light_at"], "the Bazooka is fired by its Operator (C2 32.1)")
    for oid, reason in arms.missing_grenades:
        no([oid], reason)
    if not (ch.has_skill("medic") or ch.trained_medic):
        no(["medical_aid"], "Medics only (7.14)")
    if ch.ldr < 1:
        no(["plan"], "leaders only: LDR 1 or more ([house] 7.12)")
    if not _casualty_here(game, ch, here):
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
        if not _charge_targets(game, ch, charge, game.opponents(ch)):
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
    if FRIENDLY_FORCED_MORALE_ORDERS and ch.morale in (MoraleState.ROUT, MoraleState.BERSERK):
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
    out = [pair for pair in _character_orders(game)[3] if pair[0] not in why]
    if not out:
        hide = game.data.orders.get("hide")
        out = [(hide.id, f"{hide.name} [{' '.join(s.value for s in hide.steps)}]")]
    return out


def _character_orders(
    game: GameContext,
) -> tuple[list[Order], list[str], frozenset[str], list[tuple[str, str]]]:
    """The character orders in the file's order, their ids (list and set) and ``(id, label)``.

    Built from ``game.data`` once a game (``game.memo``): the option list's hot part.
    """
    table = game.memo.get("character_orders")
    if table is None:
        orders = [o for o in game.data.orders if o.kind is OrderKind.CHARACTER]
        ids = [o.id for o in orders]
        labels = [(o.id, f"{o.name} [{' '.join(s.value for s in o.steps)}]") for o in orders]
        table = game.memo["character_orders"] = (orders, ids, frozenset(ids), labels)
    return table


def charge_targets(game: GameContext, ch: Character, order: Order | None = None) -> list[Character]:
    """Opponents ``ch`` may Charge: Known (Enemy) or Spotted (Friendly), within reach (§11).

    Reach = the hexes the Charge track moves before its X step (4 in the house
    edition). Never a dummy, never a man in a Fortified Building (C2 27.2),
    never a hex holding two or more opponents (base-rules §11); the
    incapacitated are no targets (C2 23.3). Roster order.
    """
    order = order if order is not None else game.data.orders.get("charge")
    return _charge_targets(game, ch, order, game.opponents(ch))


def _charge_targets(
    game: GameContext, ch: Character, order: Order, opponents: list[Character]
) -> list[Character]:
    """:func:`charge_targets` among ``opponents`` (``game.opponents(ch)``, asked once by the caller)."""
    h = ch.hex
    if h is None:
        return []
    reach = _game_reach(game, order)
    out = []
    for o in opponents:
        if o.dummy or not o.revealed or o.hex is None:
            continue
        if game.distance(h, o.hex) > reach or _fortified(game, o.hex):
            continue
        if sum(1 for x in opponents if x.hex == o.hex) != 1:  # entering._opponents_at
            continue
        out.append(o)
    return out


def _reach(order: Order) -> int:
    """Hexes the track moves before its first X (Melee) step: a Charge's reach (base-rules §11)."""
    total = 0
    for step in order.steps:
        if step is TrackStep.MELEE:
            break
        total += step.hexes
    return total


def _game_reach(game: GameContext, order: Order) -> int:
    """:func:`_reach` of ``order``, worked out once a game (``game.memo``, by order id)."""
    memo = game.memo.get("charge_reach")
    if memo is None:
        memo = game.memo["charge_reach"] = {}
    reach = memo.get(order.id)
    if reach is None:
        reach = memo[order.id] = _reach(order)
    return reach


def _must_move(order: Order) -> bool:
    return any(s.must_move for s in order.steps)


def _weapons(game: GameContext, ch: Character) -> list[Weapon]:
    table = game.data.weapons
    return [table.get(cw.weapon) for cw in ch.weapons if cw.weapon in table]


@attrs.frozen
class _Armament:
    """What a set of carried weapons allows (base-rules §4, §10, §12; C2 32): the facts
    :func:`forbidden_orders` reads, worked out once per game and weapon ids (:func:`_armament`)."""

    heavy: tuple[tuple[tuple[str, ...], str], ...]
    """``(order ids, reason)`` for each heavy or very heavy weapon, as carried."""
    no_firearms: bool
    only_slow: bool
    """Every firearm is slow ([house] base-rules §20 Q9)."""
    light_at: bool
    """Any light anti-tank weapon (C2 32)."""
    bazooka: bool
    """Any light anti-tank weapon that is not one-shot: a Bazooka an Assistant may load (C2 32.1)."""
    missing_grenades: tuple[tuple[str, str], ...]
    """``(grenade order id, reason)`` for each grenade kind not carried (base-rules §12)."""


def _armament(game: GameContext, ch: Character) -> _Armament:
    """The :class:`_Armament` of ``ch``'s weapons now (``game.memo``, by the tuple of weapon ids)."""
    memo = game.memo.get("armament")
    if memo is None:
        memo = game.memo["armament"] = {}
    key = tuple([cw.weapon for cw in ch.weapons])
    arms = memo.get(key)
    if arms is None:
        arms = memo[key] = _armament_of(_weapons(game, ch))
    return arms


def _armament_of(weapons: list[Weapon]) -> _Armament:
    heavy: list[tuple[tuple[str, ...], str]] = []
    for w in weapons:
        if w.has_flag(WeaponFlag.VERY_HEAVY):
            why = f"very heavy {w.name}: no Sprint or Run & Gun (base-rules §4; C2 32.3)"
            heavy.append((("sprint", "run_and_gun"), why))
        elif w.has_flag(WeaponFlag.HEAVY):
            heavy.append((("sprint",), f"heavy {w.name}: no Sprint (base-rules §4; C2 32.3)"))
    firearms = [w for w in weapons if w.kind in _FIREARMS]
    return _Armament(
        heavy=tuple(heavy),
        no_firearms=not firearms,
        only_slow=bool(firearms) and all(w.has_flag(WeaponFlag.SLOW) for w in firearms),
        light_at=any(w.kind is WeaponKind.LIGHT_AT for w in weapons),
        bazooka=any(w.kind is WeaponKind.LIGHT_AT and not w.has_flag(WeaponFlag.ONE_SHOT) for w in weapons),
        missing_grenades=tuple(
            (oid, f"no {kind.value.replace('_', ' ')} weapon (base-rules §12)")
            for oid, kind in _GRENADE_KINDS.items()
            if not any(w.kind is kind for w in weapons)
        ),
    )


def _bazooka_mate(game: GameContext, ch: Character, here: list[Character] | None = None) -> Character | None:
    """An active man of ``ch``'s side in his hex holding a Bazooka, whom ``ch`` may assist (C2 32.1).

    "A second squad member may act as an assistant": any man of the squad in the Operator's
    hex (as :func:`solo.rules.vehicles.light_at.light_at_step` finds the Bazooka he loads).
    ``here``: the characters on ``ch``'s hex in roster order, when the caller has them.
    """
    h = ch.hex
    if h is None:
        return None
    if here is None:
        here = [c for c in game.state.characters.values() if c.hex == h]
    side, active = ch.side, Status.ACTIVE
    for c in here:
        if c is not ch and c.side is side and c.status is active and _armament(game, c).bazooka:
            return c
    return None
