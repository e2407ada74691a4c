"""Friendly card effects (base-rules §1 Step 1 d) and e), §18): what a played card does now and for the
rest of the turn (WS bonus, forbidden orders, re-rolls, extra move), initiative swaps.

May import: the rules below it and the rooms below rules."""

from __future__ import annotations

from typing import Any

from solo.data.friendly_deck import (
    EffectScope,
    ExtraMove,
    FriendlyCard,
    FriendlyCardKind,
    InitiativeSwap,
    MoraleChange,
    NoEffect,
    OrderLimit,
    RefillAmmo,
    RemoveLightWound,
    Reroll,
    TriggerEvent,
    WsModifier,
)
from solo.data.tables import MoraleState
from solo.rules.context import GameContext
from solo.rules.effects import _ammo_full, _leaders_reach, _morale_gain, _remove_light_wound, _roster_index
from solo.rules.event_cards import roll_event_table
from solo.rules.state import AmmoState, Character, Side


def turn_effects(game: GameContext) -> list[dict[str, Any]]:
    """The played Order card's effects still in force this turn (plain dicts, in the order applied).

    Kinds: ``ws_modifier`` {team, value}; ``order_limit`` {team, forbid}; ``reroll`` {roll,
    count, used}; ``extra_move`` {scope, character, hexes, used}; ``initiative_swap``
    {with_enemy, done}. Each also has ``card``. ``team``/``scope`` is a :class:`EffectScope` value.
    """
    effects: list[dict[str, Any]] = game.state.flags.get("turn_effects", [])
    return effects


def _add_turn_effect(game: GameContext, effect: dict[str, Any]) -> None:
    game.state.flags.setdefault("turn_effects", []).append(effect)


def _applies_to(game: GameContext, effect: dict[str, Any], ch: Character) -> bool:
    if ch.side is not Side.FRIENDLY:
        return False
    scope = effect.get("team", effect.get("scope", "all"))
    if scope == "all":
        return True
    if scope in ("able", "baker", "charlie"):
        return bool(ch.team == scope)
    if scope == "one_character":
        return effect.get("character") in (None, ch.id)
    if scope == "near_leader":
        return ch in _leaders_reach(game, Side.FRIENDLY)
    return False


def ws_bonus(game: GameContext, ch: Character) -> int:
    """This turn's card WS modifier for ``ch``'s fire (base-rules §10 row 6, §18); 0 for enemies.

    For the combat helper: add it to every fire attack's modified WS.
    """
    return sum(
        e["value"] for e in turn_effects(game) if e["kind"] == "ws_modifier" and _applies_to(game, e, ch)
    )


def forbidden_orders(game: GameContext, ch: Character) -> frozenset[str]:
    """Order ids ``ch`` may not be given this turn by the played card (base-rules §4 "Cards may add
    limits", §18). For the movement helper's ``friendly_order_options``."""
    out: list[str] = []
    for e in turn_effects(game):
        if e["kind"] == "order_limit" and _applies_to(game, e, ch):
            out.extend(e["forbid"])
    return frozenset(out)


def rerolls_left(game: GameContext, roll: str) -> int:
    """How many re-rolls of kind ``roll`` (``fire``, ``spot``, ``check``, ``wound``) this turn's
    card still allows (``any`` effects count for every kind) (base-rules §18)."""
    return sum(
        e["count"] - e["used"]
        for e in turn_effects(game)
        if e["kind"] == "reroll" and e["roll"] in (roll, "any")
    )


def use_reroll(game: GameContext, roll: str) -> bool:
    """Spend one re-roll of kind ``roll`` (a specific effect before an ``any`` one); False if none left."""
    open_ = [e for e in turn_effects(game) if e["kind"] == "reroll" and e["count"] > e["used"]]
    for e in sorted(open_, key=lambda e: e["roll"] == "any"):
        if e["roll"] in (roll, "any"):
            e["used"] += 1
            game.emit(
                "card_effect",
                f"Card {e['card']}: a {roll} roll is re-rolled ({e['count'] - e['used']} left).",
                rule="18",
                data={"card": e["card"], "roll": roll},
            )
            return True
    return False


def extra_move_hexes(game: GameContext, ch: Character) -> int:
    """Extra hexes ``ch`` may move in one Impulse this turn by the played card (0 if none)."""
    best = 0
    for e in turn_effects(game):
        if e["kind"] != "extra_move" or not _applies_to(game, e, ch) or ch.id in e["used"]:
            continue
        if e["scope"] == "one_character" and e["used"]:
            continue
        best = max(best, e["hexes"])
    return best


def use_extra_move(game: GameContext, ch: Character) -> int:
    """Spend ``ch``'s extra move (the largest open one); returns the hexes granted (0 if none)."""
    hexes = extra_move_hexes(game, ch)
    if not hexes:
        return 0
    for e in turn_effects(game):
        if e["kind"] == "extra_move" and e["hexes"] == hexes and _applies_to(game, e, ch):
            if ch.id in e["used"] or (e["scope"] == "one_character" and e["used"]):
                continue
            e["used"].append(ch.id)
            game.emit(
                "card_effect",
                f"Card {e['card']}: {ch.name} moves {hexes} extra hex(es) this Impulse.",
                rule="18",
                actor=ch.id,
                data={"card": e["card"], "hexes": hexes},
            )
            break
    return hexes


def clear_turn_effects(game: GameContext) -> None:
    """Step 5 e): the played card's "this turn" effects end (base-rules §1 Step 5)."""
    effects = game.state.flags.pop("turn_effects", None)
    if effects:
        cards = ", ".join(dict.fromkeys(e["card"] for e in effects))
        game.emit("card_effect", f"This turn's card effects end (card {cards}).", rule="5 e); 18")


def _friendlies(game: GameContext, scope: EffectScope, character: str | None = None) -> list[Character]:
    st = game.state
    chars = [c for c in st.on_side(Side.FRIENDLY) if c.on_map]
    if scope is EffectScope.ALL:
        return chars
    if scope in (EffectScope.ABLE, EffectScope.BAKER, EffectScope.CHARLIE):
        return [c for c in chars if c.team == scope.value]
    if scope is EffectScope.NEAR_LEADER:
        return _leaders_reach(game, Side.FRIENDLY)
    if character is not None:
        return [c for c in chars if c.id == character]
    return []


def _one_character_candidates(game: GameContext, effect: Any) -> list[Character]:
    """Friendly characters a one-character effect could help, most in need first [house order]."""
    rank = _roster_index(game)
    chars = [c for c in game.state.on_side(Side.FRIENDLY) if c.on_map]
    if isinstance(effect, RemoveLightWound):
        chars = [c for c in chars if c.light_wounds]
        return sorted(chars, key=lambda c: (-c.light_wounds, rank[c.id]))
    if isinstance(effect, MoraleChange):
        chars = [c for c in chars if c.is_active]
        if effect.value > 0:
            chars = [c for c in chars if c.morale.rank > MoraleState.AGGRESSIVE.rank]
            return sorted(chars, key=lambda c: (-c.morale.rank, rank[c.id]))
        return chars
    if isinstance(effect, RefillAmmo):
        chars = [c for c in chars if c.is_active and c.ammo is not AmmoState.FULL]
        return sorted(chars, key=lambda c: (c.ammo is not AmmoState.NO, rank[c.id]))
    return [c for c in chars if c.is_active]


def card_effect_options(game: GameContext, card: FriendlyCard) -> list[tuple[str, str]] | None:
    """The choices an Order card's effect needs from the player, or None (base-rules §18).

    One-character effects (heal, morale, ammo, extra move): the characters it could help
    (key: character id). A Friendly-only initiative swap: the team pairs (key ``"able:baker"``).
    The engine may ask a Decision with these and pass the key as ``choice`` to
    :func:`apply_card_effect`; without it the [house] pick is the first option.
    """
    if card.kind is not FriendlyCardKind.ORDER:
        return None
    effect = card.effect
    scope = getattr(effect, "scope", None)
    if scope is EffectScope.ONE_CHARACTER:
        cands = _one_character_candidates(game, effect)
        return [(c.id, f"{c.name} ({c.team})") for c in cands] or None
    if isinstance(effect, InitiativeSwap) and not effect.with_enemy:
        teams = [
            t
            for t in game.state.teams.values()
            if t.side is Side.FRIENDLY and t.initiative is not None and t.id != "com"
        ]
        pairs = [(a, b) for i, a in enumerate(teams) for b in teams[i + 1 :]]
        pairs.sort(key=lambda p: -abs(p[0].on_track - p[1].on_track))
        return [
            (f"{a.id}:{b.id}", f"swap {a.name} ({a.initiative}) and {b.name} ({b.initiative})")
            for a, b in pairs
        ] or None
    return None


def apply_card_effect(game: GameContext, card: FriendlyCard, choice: str | None = None) -> None:
    """Apply a played Order card's effect for this turn (base-rules §1 Step 1 d), §18).

    A Discard card played to the track counts for its values only. Immediate effects (morale,
    ammo, Light Wound removal, event roll, Friendly initiative swap) happen now; "this turn"
    effects (WS modifier, order limit, re-roll, extra move, swap with an Enemy team) are
    stored in ``state.flags["turn_effects"]`` (:func:`turn_effects`). ``choice`` is the key the
    player picked from :func:`card_effect_options`; None takes the [house] pick (the first).
    Every effect emits an event.
    """
    if card.kind is not FriendlyCardKind.ORDER:
        if not card.kind.is_event:
            game.emit(
                "card_effect",
                f"Card {card.id} {card.title} is a Discard card: played to the track only its values count.",
                rule="5.1, 18",
                data={"card": card.id},
            )
        return
    effect = card.effect
    where = f"Card {card.id} {card.title}"
    rule = "5.0 d), 18"
    if isinstance(effect, NoEffect):
        game.emit("card_effect", f"{where}: no effect.", rule=rule, data={"card": card.id})
    elif isinstance(effect, WsModifier):
        _add_turn_effect(
            game, {"kind": "ws_modifier", "card": card.id, "team": effect.team.value, "value": effect.value}
        )
        for c in _friendlies(game, effect.team):  # read by solo.rules.firing's fire (base-rules §10 row 6)
            c.acted["card_ws"] = c.acted.get("card_ws", 0) + effect.value
        game.emit(
            "card_effect",
            f"{where}: {_scope_text(effect.team)} fire attacks get {effect.value:+d} WS this turn.",
            rule=rule,
            data={"card": card.id, "kind": "ws_modifier", "team": effect.team.value, "value": effect.value},
        )
    elif isinstance(effect, OrderLimit):
        _add_turn_effect(
            game,
            {
                "kind": "order_limit",
                "card": card.id,
                "team": effect.team.value,
                "forbid": list(effect.forbid),
            },
        )
        names = ", ".join(game.data.orders.get(o).name for o in effect.forbid)
        game.emit(
            "card_effect",
            f"{where}: {_scope_text(effect.team, possessive=False)} may not be given {names} this turn.",
            rule=f"{rule}; 4",
            data={"card": card.id, "kind": "order_limit", "forbid": list(effect.forbid)},
        )
    elif isinstance(effect, Reroll):
        _add_turn_effect(
            game,
            {"kind": "reroll", "card": card.id, "roll": effect.roll.value, "count": effect.count, "used": 0},
        )
        game.emit(
            "card_effect",
            f"{where}: {effect.count} {effect.roll.value} re-roll(s) available this turn.",
            rule=rule,
            data={"card": card.id, "kind": "reroll", "roll": effect.roll.value, "count": effect.count},
        )
    elif isinstance(effect, ExtraMove):
        # One character: the player's pick, else [house] whichever Friendly uses it first.
        target = _pick(game, card, choice) if effect.scope is EffectScope.ONE_CHARACTER and choice else None
        _add_turn_effect(
            game,
            {
                "kind": "extra_move",
                "card": card.id,
                "scope": effect.scope.value,
                "character": target.id if target else None,
                "hexes": effect.hexes,
                "used": [],
            },
        )
        who = target.name if target else _scope_text(effect.scope, possessive=False)
        game.emit(
            "card_effect",
            f"{where}: {who} may move {effect.hexes} extra hex(es) in one Impulse this turn.",
            rule=rule,
            data={"card": card.id, "kind": "extra_move", "hexes": effect.hexes},
        )
    elif isinstance(effect, MoraleChange):
        chars = [c for c in _scope_targets(game, card, effect.scope, choice) if c.is_active]
        if not chars:
            game.emit("card_effect", f"{where}: nobody to affect.", rule=rule, data={"card": card.id})
        for c in chars:
            _morale_gain(game, c, effect.value, f"card {card.id} {card.title}", f"{rule}; 7")
    elif isinstance(effect, RefillAmmo):
        chars = [c for c in _scope_targets(game, card, effect.scope, choice) if c.is_active]
        _ammo_full(game, chars, f"card {card.id} {card.title}", rule)
    elif isinstance(effect, RemoveLightWound):
        chars = _scope_targets(game, card, effect.scope, choice)
        healed = 0
        for c in chars:
            for _ in range(effect.count):
                if _remove_light_wound(c):
                    healed += 1
                    game.emit(
                        "heal",
                        f"{where}: {c.name} loses a Light Wound.",
                        rule=f"{rule}; 8",
                        actor=c.id,
                        data={"card": card.id},
                    )
        if not healed:
            game.emit("card_effect", f"{where}: no Light Wound to remove.", rule=rule, data={"card": card.id})
    elif isinstance(effect, TriggerEvent):
        game.emit(
            "card_effect",
            f"{where}: roll on the {effect.table.value.capitalize()} Event table.",
            rule=rule,
            data={"card": card.id, "kind": "event"},
        )
        roll_event_table(game, effect.table, cause=f"card {card.id}")
    elif isinstance(effect, InitiativeSwap):
        if effect.with_enemy:
            _add_turn_effect(
                game, {"kind": "initiative_swap", "card": card.id, "with_enemy": True, "done": False}
            )
            game.emit(
                "card_effect",
                f"{where}: one Friendly team may swap initiatives with an Enemy team once the Enemy "
                "initiatives are drawn.",
                rule=rule,
                data={"card": card.id, "kind": "initiative_swap", "with_enemy": True},
            )
        else:
            _swap_friendly(game, card, choice)


def _scope_text(scope: EffectScope, *, possessive: bool = True) -> str:
    text = {
        EffectScope.ALL: "every Friendly character",
        EffectScope.ABLE: "Able team",
        EffectScope.BAKER: "Baker team",
        EffectScope.CHARLIE: "Charlie team",
        EffectScope.ONE_CHARACTER: "one Friendly character",
        EffectScope.NEAR_LEADER: "every Friendly character near a leader",
    }[scope]
    return text + "'s" if possessive else text


def _pick(game: GameContext, card: FriendlyCard, choice: str | None) -> Character | None:
    """The character a one-character effect goes to: ``choice`` or the [house] first candidate."""
    cands = _one_character_candidates(game, card.effect)
    if choice is not None:
        for c in game.state.on_side(Side.FRIENDLY):
            if c.id == choice:
                return c
        raise ValueError(f"card {card.id}: {choice!r} is not a Friendly character")
    if not cands:
        return None
    game.emit(
        "card_effect",
        f"Card {card.id}: {cands[0].name} is chosen (the one most in need, house rule).",
        rule="18 [house]",
        actor=cands[0].id,
        data={"card": card.id, "choice": cands[0].id},
    )
    return cands[0]


def _scope_targets(
    game: GameContext, card: FriendlyCard, scope: EffectScope, choice: str | None
) -> list[Character]:
    if scope is EffectScope.ONE_CHARACTER:
        c = _pick(game, card, choice)
        return [c] if c is not None else []
    return _friendlies(game, scope)


def _swap_friendly(game: GameContext, card: FriendlyCard, choice: str | None) -> None:
    """Swap the initiatives of two Friendly teams now (Friendly initiatives are set, Step 1 d)."""
    options = card_effect_options(game, card) or []
    if not options:
        game.emit("card_effect", f"Card {card.id}: no two teams to swap.", rule="18", data={"card": card.id})
        return
    key = choice if choice is not None else options[0][0]
    if key not in [k for k, _ in options]:
        raise ValueError(f"card {card.id}: {key!r} is not a swap of two Friendly teams")
    a, b = (game.state.teams[t] for t in key.split(":"))
    a.initiative, b.initiative = b.initiative, a.initiative
    how = "" if choice is not None else " (house pick: the first and the last team trade places)"
    game.emit(
        "card_effect",
        f"Card {card.id}: {a.name} now acts at {a.initiative} and {b.name} at {b.initiative}{how}.",
        rule="18",
        data={"card": card.id, "kind": "initiative_swap", "teams": [a.id, b.id]},
    )


def initiative_swap_options(game: GameContext) -> list[tuple[str, str]] | None:
    """Choices for a pending Friendly-Enemy initiative swap (``"able:red"``), or None if none is due.

    For the engine: after Step 3 b), before the track is arranged (base-rules §18).
    """
    pending = [
        e for e in turn_effects(game) if e["kind"] == "initiative_swap" and e["with_enemy"] and not e["done"]
    ]
    if not pending:
        return None
    st = game.state
    friends = [t for t in st.teams.values() if t.side is Side.FRIENDLY and t.initiative is not None]
    foes = [t for t in st.teams.values() if t.side is Side.ENEMY and t.initiative is not None]
    friends.sort(key=lambda t: -t.on_track)
    foes.sort(key=lambda t: t.on_track)
    out = [
        (f"{a.id}:{b.id}", f"swap {a.name} ({a.initiative}) and {b.name} ({b.initiative})")
        for a in friends
        for b in foes
    ]
    return [("none", "no swap"), *out] if out else None


def apply_initiative_swap(game: GameContext, choice: str | None = None) -> None:
    """Carry out a pending Friendly-Enemy initiative swap (card ``initiative_swap`` with_enemy).

    ``choice`` is a key of :func:`initiative_swap_options`; None takes the [house] pick: the
    Friendly team acting last swaps with the Enemy team acting first, if that moves it earlier.
    Does nothing if no swap is pending.
    """
    options = initiative_swap_options(game)
    pending = [
        e for e in turn_effects(game) if e["kind"] == "initiative_swap" and e["with_enemy"] and not e["done"]
    ]
    if not pending:
        return
    pending[0]["done"] = True
    card = pending[0]["card"]
    if options is None:
        game.emit("card_effect", f"Card {card}: no teams to swap.", rule="18", data={"card": card})
        return
    if choice is None:
        key = options[1][0]
        a, b = (game.state.teams[t] for t in key.split(":"))
        if a.on_track < b.on_track:
            key = "none"
    else:
        if choice not in [k for k, _ in options]:
            raise ValueError(f"card {card}: {choice!r} is not a legal initiative swap")
        key = choice
    if key == "none":
        game.emit("card_effect", f"Card {card}: no initiative swap.", rule="18", data={"card": card})
        return
    a, b = (game.state.teams[t] for t in key.split(":"))
    a.initiative, b.initiative = b.initiative, a.initiative
    game.emit(
        "card_effect",
        f"Card {card}: {a.name} now acts at {a.initiative} and {b.name} at {b.initiative}.",
        rule="18",
        data={"card": card, "kind": "initiative_swap", "teams": [a.id, b.id]},
    )
