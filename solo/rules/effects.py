"""Card effects, event tables, grenades and explosions, smoke, fire, weather, the Impulse 4
effects and victory (base-rules §1 Step 1 e) and Step 5, §12–§15, §18–§19; C2 28.1, 29.1–29.5, 30).

Every function takes the :class:`~solo.engine.game.Game` first. What this module keeps between calls
lives in the state:

- ``game.state.flags["turn_effects"]``: the played Friendly Order card's "this turn" effects as a
  list of plain dicts, read by the other rule modules through :func:`ws_bonus`,
  :func:`forbidden_orders`, :func:`rerolls_left`/:func:`use_reroll` and
  :func:`extra_move_hexes`/:func:`use_extra_move`; cleared in :func:`end_phase_environment`.
- ``game.state.flags["smoke_markers"]``: one record per smoke marker
  (``{hex, state, placed, fire}``); ``game.state.markers.smoke`` is its projection (a marker
  added there by another module is adopted as an old, free marker).
- ``game.state.flags["fire_smoke_count"]``: per burning hex, how many smoke markers the fire has
  generated downwind (C2 29.2).
- ``game.state.markers.grenades``: pending grenades, smoke grenades, shells and C4 that explode
  in Step 5 a).

:func:`sync_los` keeps ``game.los`` (smoke modifier and fire flag per hex) in step with the
markers; every change made here goes through it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.hexes import Hex
from solo.data.event_tables import EventEntry, EventKind, EventTables, _shipped_event_tables
from solo.data.friendly_deck import (
    EffectScope,
    EventTable,
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
from solo.data.orders import Order
from solo.data.tables import CheckKind, MoraleState, roll_result, step_morale
from solo.data.weapons import WeaponKind
from solo.rules import morale, wounds
from solo.rules.state import AmmoState, Side, Status, Wound

if TYPE_CHECKING:
    from solo.rules.context import GameContext
    from solo.rules.state import Character

# ---------------------------------------------------------------------------
# Constants (rule values; [house] ones are to move into Options and the README)

GRENADE_RANGE: tuple[int, int] = (1, 3)
"""Hand and smoke grenades are thrown 1-3 hexes (base-rules §12 step 2) [reconstructed]."""
RIFLE_GRENADE_RANGE: tuple[int, int] = (5, 12)
"""An M7 rifle grenade is fired at 5-12 hexes (base-rules §12) [house, from the reconstruction]."""
CHARGE_RANGE = 4
"""Charge targets: Known enemies within 4 hexes (base-rules §5.3 step 8, §11) [reconstructed]."""
GRENADE_DEFAULT_WS = 2
"""Grenade WS of a man whose counter shows none (base-rules §12 step 9, §20 Q18) [house]."""
BLAST_ALERT_RANGE = 5
"""Alert condition 5: an explosion within 5 hexes (base-rules §5.6) [reconstructed]."""
SEARCH_RANGE = 1
"""Search reveals Unknown enemies and dummies within 1 hex (base-rules §4) [reconstructed]."""
BUILDING_CAP_ROWS: tuple[str, ...] = ("building", "fortified_building", "wall", "rubble")
"""Chart rows whose (M) cap holds against a grenade except from 1 hex (§12 step 7; Wall and
Rubble as Building [house])."""
NO_CAP_ROWS: tuple[str, ...] = ("rocks",)
"""Chart rows whose (M) cap never holds against grenades or artillery (§12 step 7, §14) [rulebook]."""
SMOKE_MODIFIER: dict[str, int] = {"smoke": -4, "fading": -2}
"""LOS, fire and spotting modifier of a smoke marker (base-rules §13) [reconstructed]."""
FIRE_SMOKE_MODIFIER: dict[str, int] = {"fire": -2, "raging": -4}
"""A Fire counts as Fading Smoke, a Raging Fire as Smoke, in its own hex (C2 29.2)."""
FIRE_SMOKE_MARKERS: dict[str, int] = {"fire": 2, "raging": 3}
"""Most smoke markers a fire generates downwind: a Fire's smoke number 3 is its hex and two
Fading markers, a Raging Fire's 4 its hex and three Smoke markers (C2 29.2)."""
HEAVY_RAIN_FIRE_MODIFIER = 1
"""Added to kindling and spread rolls in Heavy Rain (C2 29.2, 29.4)."""
RAGING_FIRE_NEVER_GOES_OUT = True
"""[house] A Raging Fire rolls for spread instead of growth (C2 29.4), so no 9 puts it out:
it burns to the end of the battle (C2 29.3 "stays that way"). Informative; not switchable."""
MAX_LOS_DICE: dict[str, str] = {"heavy_rain": "2d6", "mist": "1d6+4", "fog": "1d6"}
"""The rolled maximum LOS of the weather (C2 28.1)."""
WEATHERS: tuple[str, ...] = ("clear", "rain", "heavy_rain", "mist", "fog")
"""Weather types (C2 28.1)."""
EVENT_CHAIN_LIMIT = 1
"""[house] "Roll on the other table" is followed once; a second chain reads as nothing."""
VP_ENEMY_KILLED = 1
"""[reconstructed] VP per Enemy killed or routed off the map (base-rules §19)."""
VP_ENEMY_LEADER_KILLED = 2
"""[reconstructed] VP per Enemy leader (LDR > 0) killed or routed off (§19: NCO/officer more)."""
VP_PRISONER_COUNTS_AS_KILLED = True
"""[house] An Enemy taken prisoner scores as if killed (when the scenario sets no value)."""
VP_FRIENDLY_KILLED = -2
"""[house] VP per Friendly character killed (§19 "Friendly losses"), when the scenario sets none."""
VP_FRIENDLY_LOST = -1
"""[house] VP per Friendly character incapacitated or captured at the end, when the scenario sets none."""
VP_BANDS: tuple[tuple[int, str], ...] = (
    (15, "superb"),
    (12, "good"),
    (9, "marginal"),
    (6, "not enough"),
    (1, "poor"),
)
"""Standard VP bands, best first: the first whose minimum the score reaches (base-rules §19)
[reconstructed]; below 1 is "demotion"."""
VP_TO_WIN = 9
"""[house] The Friendly side wins with a marginal result or better (§19 bands)."""
CAPTURE_RANGE = 2
"""An incapacitated Friendly with no Friendly within 2 hexes at the end is captured (C2 23.3)."""


@attrs.frozen
class Shell:
    """A calibre's effect: power in the hex and adjacent (``tq_minus_power``) and scatter ``k``."""

    power_hex: int
    power_adjacent: int
    scatter_k: int
    """A round scatters max(0, d6 - k) hexes (base-rules §14)."""


SHELLS: dict[str, Shell] = {
    "60mm": Shell(3, 2, 2),
    "81mm": Shell(4, 2, 1),
    "105mm": Shell(5, 3, 0),
    "c4": Shell(3, 3, 0),
}
"""Power (hex/adjacent) and scatter of each calibre, and of C4 (base-rules §14) [house approximation]."""
C4_EXPLODES_ON = 2
"""C4 explodes in Step 5 from the turn after it is set on d10 0-2, always by the end (§14)."""


def event_tables(game: GameContext) -> EventTables:
    """The Event tables of this game: ``game.data.events`` if the data has them, else the shipped file."""
    tables = getattr(game.data, "events", None)
    return tables if isinstance(tables, EventTables) else _shipped_event_tables()


# ---------------------------------------------------------------------------
# Small helpers


def _turn(game: GameContext) -> int:
    return game.state.flow.turn


def _hex_of(value: str | None) -> Hex | None:
    """``value`` as a hex if it is a ``CC.RR`` label, else None."""
    if not value or len(value) != 5 or value[2] != ".":
        return None
    try:
        return Hex.parse(value)
    except ValueError:
        return None


def _on_board(game: GameContext, h: Hex | None) -> bool:
    return h is not None and h in game.board.index


def _within(game: GameContext, centre: Hex, radius: int) -> list[Hex]:
    """Hexes of the board within ``radius`` of ``centre``, nearest first then by label."""
    board = game.board
    start = board.index.get(centre)
    if start is None:
        return []
    seen = {start: 0}
    frontier = [start]
    for d in range(1, radius + 1):
        nxt = []
        for i in frontier:
            for n in board.neighbours[i][1:]:
                if n >= 0 and n not in seen:
                    seen[n] = d
                    nxt.append(n)
        frontier = nxt
    return sorted((board.hexes[i] for i in seen), key=lambda h: (seen[board.index[h]], h))


def _roster_index(game: GameContext) -> dict[str, int]:
    return {cid: i for i, cid in enumerate(game.state.characters)}


def _side_name(side: Side) -> str:
    return "Friendly" if side is Side.FRIENDLY else "Enemy"


def _reveal(game: GameContext, ch: Character, why: str, rule: str) -> None:
    """Reveal ``ch``: a Friendly becomes Spotted, an Enemy Known; a dummy is removed (§3, §9).

    Through ``solo.rules.spotting.reveal`` and ``solo.rules.spotting.remove_dummy``.
    """
    from solo.rules import spotting

    if ch.dummy:
        spotting.remove_dummy(game, ch, why, rule)
    else:
        spotting.reveal(game, ch, reason=why, rule=rule)


def _out_of_action_check(ch: Character) -> None:
    """Status after wounds are removed: an incapacitated Friendly below TQ is active again [house]."""
    if ch.status is Status.INCAPACITATED and -ch.wound_penalty < ch.tq:
        ch.status = Status.ACTIVE


def _remove_light_wound(ch: Character) -> bool:
    """Remove the newest Light Wound of ``ch``; False if he has none."""
    for i in range(len(ch.wounds) - 1, -1, -1):
        if ch.wounds[i] is Wound.LIGHT:
            del ch.wounds[i]
            _out_of_action_check(ch)
            return True
    return False


def _leaders_reach(game: GameContext, side: Side) -> list[Character]:
    """Characters of ``side`` within the LDR range of one of its active leaders, roster order."""
    leaders = [c for c in game.state.active(side) if c.ldr > 0 and not c.dummy]
    return [
        c
        for c in game.state.active(side)
        if not c.dummy and any(game.distance(c.hex, lead.hex) <= lead.ldr for lead in leaders)
    ]


def _morale_gain(game: GameContext, ch: Character, steps: int, why: str, rule: str) -> None:
    """Change ``ch``'s Morale State by ``steps`` (gains stop at Aggressive, base-rules §7, §18)."""
    before = ch.morale
    ch.morale = step_morale(before, steps, cap=MoraleState.AGGRESSIVE)
    if ch.morale is before:
        game.emit(
            "morale",
            f"{ch.name} stays {before.value.capitalize()} ({why}: no change within the cap).",
            rule=rule,
            actor=ch.id,
            data={"before": before.value, "after": before.value, "steps": steps},
        )
        return
    game.emit(
        "morale",
        f"{ch.name} goes from {before.value.capitalize()} to {ch.morale.value.capitalize()} ({why}).",
        rule=rule,
        actor=ch.id,
        data={"before": before.value, "after": ch.morale.value, "steps": steps},
    )


# ---------------------------------------------------------------------------
# Adapters to the other rule modules (imported when called: they import this module too)


def _wound(game: GameContext, ch: Character, *, cause: str, rule: str) -> None:
    """One wound draw on ``ch`` and its effects (base-rules §8): ``solo.rules.wounds.wound_draw`` then
    ``solo.rules.wounds.apply_wound`` (as from fire: Duck Back and WMC, Tough drawn automatically)."""

    if not ch.on_map:
        return
    stamp = wounds.wound_draw(game, ch)
    wounds.apply_wound(game, ch, stamp, melee=False, reason=f"{cause}; {rule}")


def _morale_check(game: GameContext, ch: Character, *, cause: str, rule: str) -> None:
    """An MC on ``ch`` (base-rules §7) through ``solo.rules.morale.morale_check`` (a drop: Duck Back)."""

    morale.morale_check(game, ch, cause, rule)


def _alert_near(game: GameContext, h: Hex, radius: int, cause: str, rule: str) -> None:
    """Alert condition 5: Waiting enemies within ``radius`` of ``h`` become Alert (base-rules §5.6)."""
    from solo.rules import spotting

    spotting.alert_near(game, h, radius, cause, rule)


# ---------------------------------------------------------------------------
# "This turn" card effects (base-rules §18): stored as plain dicts, queried by other modules


def turn_effects(game: GameContext) -> list[dict[str, Any]]:
    """The played Order card's effects still in force this turn (plain dicts, in the order applied).

    Kinds: ``ws_modifier`` {team, value}; ``order_limit`` {team, forbid}; ``reroll`` {roll,
    count, used}; ``extra_move`` {scope, character, hexes, used}; ``initiative_swap``
    {with_enemy, done}. Each also has ``card``. ``team``/``scope`` is a :class:`EffectScope` value.
    """
    return game.state.flags.get("turn_effects", [])


def _add_turn_effect(game: GameContext, effect: dict[str, Any]) -> None:
    game.state.flags.setdefault("turn_effects", []).append(effect)


def _applies_to(game: GameContext, effect: dict[str, Any], ch: Character) -> bool:
    if ch.side is not Side.FRIENDLY:
        return False
    scope = effect.get("team", effect.get("scope", "all"))
    if scope == "all":
        return True
    if scope in ("able", "baker", "charlie"):
        return ch.team == scope
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


# ---------------------------------------------------------------------------
# Friendly card effects (base-rules §1 Step 1 d) and e), §18)


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
        pairs.sort(key=lambda p: -abs(p[0].initiative - p[1].initiative))
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


def _ammo_full(game: GameContext, chars: Iterable[Character], why: str, rule: str) -> None:
    done = 0
    for c in chars:
        if c.ammo is AmmoState.FULL:
            continue
        before = c.ammo
        c.ammo = AmmoState.FULL
        done += 1
        game.emit(
            "ammo",
            f"{c.name}'s ammo goes from {before.value.capitalize()} to Full ({why}).",
            rule=f"{rule}; 10",
            actor=c.id,
            data={"before": before.value},
        )
    if not done:
        game.emit("ammo", f"Nobody needs ammunition ({why}).", rule=rule)


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
    friends.sort(key=lambda t: -t.initiative)
    foes.sort(key=lambda t: t.initiative)
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
        if a.initiative < b.initiative:
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


# ---------------------------------------------------------------------------
# Event tables (base-rules §1 Step 1 e), §18)


def resolve_event_card(game: GameContext, card: Any) -> None:
    """An Event card played in Step 1 e): roll a d10 on the Friendly or Enemy Event table (§18).

    ``card`` is the :class:`~solo.data.friendly_deck.FriendlyCard` (kind ``friendly_event`` or
    ``enemy_event``).
    """
    effect = getattr(card, "effect", None)
    if isinstance(effect, TriggerEvent):
        table = effect.table
    else:
        table = EventTable.ENEMY if card.kind is FriendlyCardKind.ENEMY_EVENT else EventTable.FRIENDLY
    roll_event_table(game, table, cause=f"Event card {card.id}")


def roll_event_table(game: GameContext, table: EventTable, *, cause: str, depth: int = 0) -> EventEntry:
    """Roll a d10 on ``table`` and apply the entry (base-rules §18); returns the entry read."""
    tables = event_tables(game)
    roll = game.dice.d10(f"{table.value.capitalize()} Event table ({cause})").total
    entry = tables.entry(table, roll)
    game.emit(
        "event_table",
        f"{table.value.capitalize()} Event table, roll {roll}: {entry.title}. {entry.text}",
        rule="18",
        data={"table": table.value, "roll": roll, "kind": entry.kind.value, "title": entry.title},
    )
    _apply_event(game, table, entry, depth)
    return entry


def _apply_event(game: GameContext, table: EventTable, entry: EventEntry, depth: int) -> None:
    side = Side.FRIENDLY if table is EventTable.FRIENDLY else Side.ENEMY
    why = f"{table.value} event {entry.title}"
    rule = "18"
    st = game.state
    rank = _roster_index(game)
    kind = entry.kind
    if kind is EventKind.HEAL_LIGHT_WOUND:
        cands = sorted(
            (c for c in st.on_side(side) if c.on_map and c.light_wounds),
            key=lambda c: (-c.light_wounds, rank[c.id]),
        )[: entry.count]
        for c in cands:
            _remove_light_wound(c)
            game.emit("heal", f"{c.name} loses a Light Wound ({why}).", rule=f"{rule}; 8", actor=c.id)
        if not cands:
            game.emit("event_effect", f"No {_side_name(side)} character has a Light Wound.", rule=rule)
    elif kind is EventKind.AMMO:
        cands = sorted(
            (c for c in st.active(side) if c.ammo is not AmmoState.FULL and not c.dummy),
            key=lambda c: (c.ammo is not AmmoState.NO, rank[c.id]),
        )[: entry.count]
        _ammo_full(game, cands, why, rule)
    elif kind is EventKind.EXTRA_CARD:
        for _ in range(entry.count):
            card = game.friendly_deck.draw(game.dice, f"extra card ({why})").card
            st.cards.hand.append(card)
            game.emit(
                "event_effect", f"Card {card} drawn into the hand ({why}).", rule=rule, data={"card": card}
            )
    elif kind is EventKind.SUPPORT_FIRE:
        assert entry.calibre is not None and entry.rounds is not None
        call_support_fire(game, entry.calibre.value, entry.rounds, target_side=side.other, cause=why)
    elif kind is EventKind.MORALE_NEAR_LEADER:
        chars = _leaders_reach(game, side)
        if not chars:
            game.emit("event_effect", f"No {_side_name(side)} character is near a leader.", rule=rule)
        for c in chars:
            _morale_gain(game, c, entry.value, why, f"{rule}; 7")
    elif kind is EventKind.REVEAL_ENEMY:
        _reveal_nearest(game, side, why)
    elif kind is EventKind.OTHER_TABLE:
        if depth >= EVENT_CHAIN_LIMIT:
            game.emit(
                "event_effect",
                "A second 'roll the other table' reads as nothing (house rule).",
                rule="18 [house]",
            )
            return
        other = EventTable.ENEMY if table is EventTable.FRIENDLY else EventTable.FRIENDLY
        roll_event_table(game, other, cause=why, depth=depth + 1)
    elif kind is EventKind.ILLUMINATION:
        if not game.scenario.night:
            game.emit("event_effect", "Illumination by day: no effect.", rule="15, 18")
            return
        hexes = target_table(game, side.other)
        if not hexes:
            game.emit("event_effect", "No target hex for the illumination.", rule="15, 18")
            return
        roll = game.dice.d10(f"illumination hex on the target table ({why})").total
        h = hexes[roll % len(hexes)]
        st.markers.illuminated.append(h)
        game.emit(
            "illumination",
            f"An illumination marker lights every hex within 3 of {h} this turn (target table roll {roll}).",
            rule="15",
            data={"hex": str(h), "roll": roll},
        )
    elif kind is EventKind.WEATHER:
        assert entry.weather is not None
        change_weather(game, entry.weather.value, cause=why)
    else:
        game.emit("event_effect", f"No effect ({why}).", rule=rule)


def _reveal_nearest(game: GameContext, side: Side, why: str) -> None:
    """Reveal the unrevealed opponent of ``side`` nearest one of ``side``'s characters (§18)."""
    st = game.state
    mine = [c for c in st.active(side) if not c.dummy]
    hidden = [c for c in st.active(side.other) if not c.revealed]
    if not mine or not hidden:
        game.emit("event_effect", f"Nobody to reveal ({why}).", rule="18")
        return
    rank = _roster_index(game)
    target = min(hidden, key=lambda c: (min(game.distance(c.hex, m.hex) for m in mine), rank[c.id]))
    _reveal(game, target, why, "18")


def target_table(game: GameContext, side: Side) -> list[Hex]:
    """The 10-hex target table (d10 face → hex) for fire on ``side`` (base-rules §14, §19).

    A scenario may give ``target_tables: {friendly: [10 hexes], enemy: [...]}``; otherwise
    [house] the hexes of ``side``'s on-map characters (dummies included, roster order, each
    once) repeat to fill the ten faces. Empty if ``side`` has nobody on the map.
    """
    given = getattr(game.scenario, "target_tables", None)
    if isinstance(given, dict) and given.get(side.value):
        hexes = given[side.value]
        hexes = hexes.split() if isinstance(hexes, str) else hexes
        return [Hex.parse(x) if isinstance(x, str) else x for x in hexes][:10]
    hexes = list(dict.fromkeys(c.hex for c in game.state.active(side)))
    if not hexes:
        return []
    return [hexes[i % len(hexes)] for i in range(10)]


# ---------------------------------------------------------------------------
# Weather (C2 28.1)


def roll_max_los(game: GameContext, weather: str) -> int | None:
    """Roll the maximum LOS of ``weather`` (C2 28.1): Heavy Rain 2d6, Mist 1d6+4, Fog 1d6; else None."""
    dice = MAX_LOS_DICE.get(weather)
    if dice is None:
        return None
    return game.dice.roll(dice, f"maximum LOS in {weather.replace('_', ' ')} (C2 28.1)").total


def setup_weather(game: GameContext) -> None:
    """Set-up: roll the weather's maximum LOS if the state has none (C2 28.1).

    ``solo.data.scenario.build_state`` already rolls it (and the wind); this guards states built
    otherwise. For the engine: call once in ``_setup`` (a no-op when the LOS is set).
    """
    st = game.state
    if st.max_los is None and st.weather in MAX_LOS_DICE:
        st.max_los = roll_max_los(game, st.weather)
        game.emit(
            "weather",
            f"{st.weather.replace('_', ' ').capitalize()}: the maximum LOS is {st.max_los} hexes.",
            rule="C2 28.1",
            data={"weather": st.weather, "max_los": st.max_los},
        )


def change_weather(game: GameContext, weather: str, *, cause: str) -> None:
    """The weather becomes ``weather`` (an event, C2 28.0): a new maximum LOS is rolled.

    Mist to Fog: a Fog roll above the Mist LOS gives the Mist LOS - 1 (C2 28.1).
    Raises ``ValueError`` for an unknown weather.
    """
    if weather not in WEATHERS:
        raise ValueError(f"unknown weather {weather!r} (expected one of {', '.join(WEATHERS)})")
    st = game.state
    before, old_los = st.weather, st.max_los
    st.weather = weather
    los = roll_max_los(game, weather)
    if weather == "fog" and before == "mist" and old_los is not None and los is not None and los > old_los:
        los = old_los - 1
    st.max_los = los
    game.emit(
        "weather",
        f"The weather changes from {before.replace('_', ' ')} to {weather.replace('_', ' ')} ({cause})"
        + (f": the maximum LOS is {los} hexes." if los is not None else ": no LOS limit."),
        rule="C2 28.1",
        data={"before": before, "weather": weather, "max_los": los},
    )
    if getattr(st, "vehicles", None):
        from solo.rules.vehicles.markers import refresh_markers

        refresh_markers(game)  # C2 31.7.4: markers out of LOS go at once


# ---------------------------------------------------------------------------
# Smoke markers and LOS sync (base-rules §13; C2 29.2, 29.5)


def sync_los(game: GameContext, h: Hex) -> None:
    """Recompute hex ``h``'s smoke modifier and fire flag in ``game.los`` from the markers.

    Smoke −4, Fading −2 per marker; a Fire counts as Fading (−2) and a Raging Fire as Smoke (−4)
    in its own hex; a fire blocks LOS through the hex (base-rules §13; C2 29.2, 29.5).
    """
    m = game.state.markers
    fire = m.fire.get(h)
    modifier = sum(SMOKE_MODIFIER.get(s, 0) for s in m.smoke.get(h, ())) + FIRE_SMOKE_MODIFIER.get(fire, 0)
    game.los.set_smoke(h, modifier)
    game.los.set_fire(h, fire is not None)


def sync_los_all(game: GameContext) -> None:
    """Bring ``game.los`` in step with every smoke and fire marker (e.g. after set-up)."""
    m = game.state.markers
    for h in dict.fromkeys([*m.smoke, *m.fire]):
        if _on_board(game, h):
            sync_los(game, h)


def _smoke_records(game: GameContext) -> list[dict[str, Any]]:
    """The smoke marker records, after adopting markers other modules put in ``markers.smoke``."""
    st = game.state
    recs: list[dict[str, Any]] = st.flags.setdefault("smoke_markers", [])
    if not recs and not st.markers.smoke:
        return recs
    by_hex: dict[str, list[dict[str, Any]]] = {}
    for r in recs:
        by_hex.setdefault(r["hex"], []).append(r)
    for h in list(dict.fromkeys([*st.markers.smoke, *(Hex.parse(k) for k in by_hex)])):
        have = st.markers.smoke.get(h, [])
        mine = by_hex.get(str(h), [])
        if sorted(have) == sorted(r["state"] for r in mine):
            continue
        for state in ("smoke", "fading"):
            diff = have.count(state) - sum(1 for r in mine if r["state"] == state)
            if diff > 0:
                recs.extend({"hex": str(h), "state": state, "placed": 0, "fire": None} for _ in range(diff))
            for _ in range(-diff):
                for r in reversed(recs):
                    if r["hex"] == str(h) and r["state"] == state and r["fire"] is None:
                        recs.remove(r)
                        break
        _project(game, h, recs)
    return recs


def _project(game: GameContext, h: Hex, recs: list[dict[str, Any]]) -> None:
    """Rewrite ``markers.smoke[h]`` from the records and sync LOS."""
    states = [r["state"] for r in recs if r["hex"] == str(h)]
    if states:
        game.state.markers.smoke[h] = states
    else:
        game.state.markers.smoke.pop(h, None)
    if _on_board(game, h):
        sync_los(game, h)


def place_smoke(
    game: GameContext,
    h: Hex,
    state: str = "smoke",
    *,
    cause: str,
    rule: str = "13",
    placed: int | None = None,
    fire: Hex | None = None,
) -> None:
    """Put a Smoke (``"smoke"``) or Fading Smoke (``"fading"``) marker on ``h`` (base-rules §13).

    ``placed`` is the turn it counts as placed (default now: it neither fades nor drifts this
    End Phase); ``fire`` marks a marker generated by the fire on that hex (C2 29.2: it neither
    fades nor drifts, and goes when the fire is put out). Off-map hexes are ignored.
    """
    if state not in SMOKE_MODIFIER:
        raise ValueError(f"a smoke marker is 'smoke' or 'fading', got {state!r}")
    if not _on_board(game, h):
        return
    recs = _smoke_records(game)
    recs.append(
        {
            "hex": str(h),
            "state": state,
            "placed": _turn(game) if placed is None else placed,
            "fire": str(fire) if fire is not None else None,
        }
    )
    _project(game, h, recs)
    name = "Smoke" if state == "smoke" else "Fading Smoke"
    game.emit(
        "smoke",
        f"{name} on {h} ({cause}).",
        rule=rule,
        data={"hex": str(h), "state": state, "fire": str(fire) if fire else None},
    )


def _smoke_end_phase(game: GameContext) -> None:
    """Step 5 a): Smoke → Fading, Fading removed, then drift 1 hex downwind; not markers placed
    this turn, nor those a fire generates (base-rules §13; C2 29.2, 31.11.2)."""
    recs = _smoke_records(game)
    if not recs:
        return
    turn = _turn(game)
    wind = game.state.wind
    touched: list[Hex] = []
    for r in list(recs):
        if r["fire"] is not None or r["placed"] >= turn:
            continue
        h = Hex.parse(r["hex"])
        touched.append(h)
        if r["state"] == "fading":
            recs.remove(r)
            game.emit("smoke", f"Fading Smoke on {h} is removed.", rule="13", data={"hex": str(h)})
            continue
        r["state"] = "fading"
        to = game.board.neighbour_hex(h, wind) if _on_board(game, h) else None
        if to is None:
            recs.remove(r)
            game.emit(
                "smoke",
                f"Smoke on {h} thins to Fading Smoke and drifts off the map (wind {wind}).",
                rule="13",
                data={"hex": str(h)},
            )
            continue
        r["hex"] = str(to)
        touched.append(to)
        game.emit(
            "smoke",
            f"Smoke on {h} thins to Fading Smoke and drifts to {to} (wind {wind}).",
            rule="13",
            data={"hex": str(h), "to": str(to), "wind": wind},
        )
    for h in dict.fromkeys(touched):
        _project(game, h, recs)


# ---------------------------------------------------------------------------
# Fire (C2 29.1–29.5)


def _fire_value(game: GameContext, h: Hex, what: str) -> int | None:
    """The best kindling/growth/spread value among ``h``'s terrain and overlays (None: does not burn)."""
    values = [getattr(t, what) for t in (game.board.terrain_of(h), *game.board.overlays_of(h))]
    values = [v for v in values if v is not None]
    return max(values) if values else None


def start_fire(game: GameContext, h: Hex, *, cause: str, rule: str = "C2 29.2") -> None:
    """Place a Fire marker on ``h`` (started this turn: no damage, growth or smoke this turn, C2 29.2)."""
    m = game.state.markers
    if h in m.fire or not _on_board(game, h):
        return
    m.fire[h] = "fire"
    m.fire_started[h] = _turn(game)
    game.state.flags.setdefault("fire_smoke_count", {})[str(h)] = 0
    sync_los(game, h)
    game.emit(
        "burning",
        f"A Fire starts on {h} ({cause}); nobody may enter it and it blocks LOS.",
        rule=rule,
        data={"hex": str(h), "cause": cause},
    )


def kindle(game: GameContext, h: Hex, *, cause: str) -> bool:
    """The kindling roll after an artillery or mortar attack on ``h`` (C2 29.1–29.2).

    d10 (+1 in Heavy Rain) <= the terrain's kindling value places a Fire. No roll where the
    terrain cannot burn or a fire already burns. Returns True if a fire started.
    """
    value = _fire_value(game, h, "kindling")
    if value is None or h in game.state.markers.fire or not _on_board(game, h):
        return False
    face = game.dice.d10(f"kindling on {h} ({cause}, C2 29.1)").total
    mod = HEAVY_RAIN_FIRE_MODIFIER if game.state.weather == "heavy_rain" else 0
    lit = face + mod <= value
    game.emit(
        "kindling",
        f"Kindling roll on {h}: {face}{f' +{mod} heavy rain' if mod else ''} against {value}: "
        + ("the hex catches fire." if lit else "no fire."),
        rule="C2 29.1, 29.2",
        data={"hex": str(h), "roll": face, "modifier": mod, "kindling": value, "lit": lit},
    )
    if lit:
        start_fire(game, h, cause=cause, rule="C2 29.1")
    return lit


def extinguish(game: GameContext, h: Hex, *, cause: str) -> None:
    """Remove the fire on ``h`` and every smoke marker it generated (C2 29.3)."""
    st = game.state
    if h not in st.markers.fire:
        return
    del st.markers.fire[h]
    st.markers.fire_started.pop(h, None)
    st.flags.get("fire_smoke_count", {}).pop(str(h), None)
    recs = _smoke_records(game)
    touched = [h]
    for r in list(recs):
        if r["fire"] == str(h):
            recs.remove(r)
            touched.append(Hex.parse(r["hex"]))
    for x in dict.fromkeys(touched):
        _project(game, x, recs)
    game.emit(
        "burning", f"The fire on {h} goes out ({cause}) with its smoke.", rule="C2 29.3", data={"hex": str(h)}
    )


def _fire_smoke(game: GameContext, h: Hex) -> None:
    """A fire generates its next smoke marker downwind (C2 29.2): a Fire up to two Fading, a
    Raging Fire up to three Smoke, the k-th marker k hexes downwind (none off the map)."""
    st = game.state
    counts = st.flags.setdefault("fire_smoke_count", {})
    state = st.markers.fire[h]
    n = counts.get(str(h), 0)
    if n >= FIRE_SMOKE_MARKERS[state]:
        return
    counts[str(h)] = n + 1
    to: Hex | None = h
    for _ in range(n + 1):
        to = game.board.neighbour_hex(to, st.wind) if to is not None else None
    if to is None:
        game.emit("smoke", f"The smoke of the fire on {h} blows off the map.", rule="C2 29.2")
        return
    place_smoke(
        game,
        to,
        "smoke" if state == "raging" else "fading",
        cause=f"smoke of the {'Raging ' if state == 'raging' else ''}Fire on {h}",
        rule="C2 29.2",
        fire=h,
    )


def _fire_end_phase(game: GameContext) -> None:
    """Step 5 a): for each fire older than this turn, damage (C2 29.2), smoke, then growth or
    extinguishing (29.3) for a Fire, spread (29.4) for a Raging Fire."""
    st = game.state
    m = st.markers
    if not m.fire:
        return
    turn = _turn(game)
    for h in list(m.fire):
        if h not in m.fire:
            continue
        m.fire_started.setdefault(h, 0)
        if m.fire_started[h] >= turn:
            continue
        state = m.fire[h]
        draws = 2 if state == "raging" else 1
        for c in st.at(h):
            for _ in range(draws):
                if c.on_map and c.hex == h:
                    _wound(
                        game, c, cause=f"{'Raging ' if state == 'raging' else ''}Fire on {h}", rule="C2 29.2"
                    )
        _fire_smoke(game, h)
        if state == "fire":
            _fire_growth(game, h)
        else:
            _fire_spread(game, h, turn)


def _fire_growth(game: GameContext, h: Hex) -> None:
    st = game.state
    growth = _fire_value(game, h, "growth")
    face = game.dice.d10(f"fire growth on {h} (C2 29.3)").total
    if face == 9:
        game.emit(
            "burning",
            f"Fire growth on {h}: a 9, the fire is extinguished.",
            rule="C2 29.3",
            data={"hex": str(h), "roll": face, "growth": growth},
        )
        extinguish(game, h, cause="a 9 on the growth roll")
        return
    grows = growth is not None and face <= growth
    game.emit(
        "burning",
        f"Fire growth on {h}: {face} against {growth}: "
        + ("it becomes a Raging Fire." if grows else "it burns on."),
        rule="C2 29.3",
        data={"hex": str(h), "roll": face, "growth": growth, "raging": grows},
    )
    if not grows:
        return
    st.markers.fire[h] = "raging"
    recs = _smoke_records(game)
    touched = [h]
    for r in recs:
        if r["fire"] == str(h):
            r["state"] = "smoke"
            touched.append(Hex.parse(r["hex"]))
    for x in dict.fromkeys(touched):
        _project(game, x, recs)


def _fire_spread(game: GameContext, h: Hex, turn: int) -> None:
    st = game.state
    to = game.board.neighbour_hex(h, st.wind)
    if to is None or to in st.markers.fire:
        return
    spread = _fire_value(game, to, "spread")
    if spread is None:
        return
    face = game.dice.d10(f"fire spread from {h} to {to} (C2 29.4)").total
    mod = HEAVY_RAIN_FIRE_MODIFIER if st.weather == "heavy_rain" else 0
    spreads = face + mod <= spread
    game.emit(
        "burning",
        f"Raging Fire on {h} spreads downwind to {to}? {face}{f' +{mod} heavy rain' if mod else ''} "
        f"against {spread}: " + ("yes." if spreads else "no."),
        rule="C2 29.4",
        data={"hex": str(h), "to": str(to), "roll": face, "modifier": mod, "spread": spread},
    )
    if spreads:
        start_fire(game, to, cause=f"spread from {h}", rule="C2 29.4")


# ---------------------------------------------------------------------------
# Off-board artillery (base-rules §14)


def call_support_fire(game: GameContext, calibre: str, rounds: str, *, target_side: Side, cause: str) -> int:
    """Off-board fire at ``target_side``'s target table (base-rules §14); returns the rounds placed.

    Rounds: a d6 or a d10 (0 = none). Each round: d10 on the target table, then scatter d6 in
    direction and max(0, d6 - k) hexes; a round scattered off the map is lost. The rounds are
    pending shells that explode in Step 5 a).
    """
    shell = SHELLS[calibre]
    purpose = f"rounds of {calibre} ({cause})"
    # A d10 reads 0-9: a 0 means no round (base-rules §14).
    n = game.dice.d6(purpose).total if rounds == "d6" else game.dice.d10(purpose).total
    table = target_table(game, target_side)
    game.emit(
        "artillery",
        f"{n} round(s) of {calibre} on the {target_side.value} target table ({cause}).",
        rule="14",
        data={"calibre": calibre, "rounds": n},
    )
    if not table:
        return 0
    placed = 0
    for i in range(n):
        face = game.dice.d10(f"{calibre} round {i + 1}: target hex").total
        aim = table[face]
        direction = game.dice.d6(f"{calibre} round {i + 1}: scatter direction").total
        dist = max(0, game.dice.d6(f"{calibre} round {i + 1}: scatter distance").total - shell.scatter_k)
        h: Hex | None = aim
        for _ in range(dist):
            h = game.board.neighbour_hex(h, direction) if h is not None else None
        if h is None:
            game.emit(
                "artillery",
                f"Round {i + 1} aimed at {aim} scatters {dist} hex(es) toward {direction}, off the map.",
                rule="14",
                data={"aim": str(aim), "direction": direction, "distance": dist},
            )
            continue
        game.state.markers.grenades.append(
            {"kind": "shell", "calibre": calibre, "hex": str(h), "thrower": None, "turn": _turn(game)}
        )
        placed += 1
        game.emit(
            "artillery",
            f"Round {i + 1} aimed at {aim} (roll {face}) scatters {dist} hex(es) toward {direction}: "
            f"it lands on {h} and explodes in the End Phase.",
            rule="14",
            data={"aim": str(aim), "roll": face, "direction": direction, "distance": dist, "hex": str(h)},
        )
    return placed


def _explode_shell(game: GameContext, rec: dict[str, Any]) -> None:
    """A shell (or C4) explodes: the ``tq_minus_power`` damage model, blast MCs, kindling (C2 29.1),
    alert 5 and Smoke next turn (base-rules §14, §13)."""
    st = game.state
    h = Hex.parse(rec["hex"])
    calibre = rec.get("calibre", "c4")
    shell = SHELLS[calibre]
    what = "C4" if calibre == "c4" else f"a {calibre} round"
    if game.options.oba_model != "tq_minus_power":
        game.emit(
            "explosion",
            f"Artillery model {game.options.oba_model!r} is not available; using tq_minus_power.",
            rule="14; 20 Q22",
        )
    game.emit(
        "explosion",
        f"{what.capitalize()} explodes on {h}.",
        rule="14",
        data={"hex": str(h), "calibre": calibre},
    )
    for c in st.at(h):
        _reveal(game, c, f"{what} explodes in his hex", "14")
    hurt: list[str] = []
    area = [(x, shell.power_hex if x == h else shell.power_adjacent) for x in _within(game, h, 1)]
    for x, power in area:
        for c in st.at(x):
            if c.dummy or not c.on_map or not _in_the_open(game, c):
                continue
            target = c.effective_tq - power
            face = game.dice.d10(f"{what} on {h}: {c.name} (TQ {c.effective_tq} - power {power})").total
            safe = roll_result(face, target).passed
            game.emit(
                "blast",
                f"{c.name} on {x}: {face} against TQ {c.effective_tq} - power {power} = {target}: "
                + ("unharmed." if safe else "a wound draw."),
                rule="14 [house tq_minus_power]",
                actor=c.id,
                data={"roll": face, "target": target, "power": power, "hex": str(x)},
            )
            if not safe:
                hurt.append(c.id)
                _wound(game, c, cause=f"{what} on {h}", rule="14")
    _blast_morale(game, h, hurt, what)
    if st.vehicles and calibre != "c4":
        from solo.rules.vehicles.hazards import artillery_hits_vehicle

        for v in list(st.vehicles.values()):
            if v.hex == h and v.is_active:
                artillery_hits_vehicle(game, v, calibre)  # C2 31.10.12
    kindle(game, h, cause=what)
    _alert_near(game, h, BLAST_ALERT_RANGE, f"{what} explodes on {h}", "5.6 #5")
    place_smoke(game, h, "smoke", cause=f"{what} explodes", rule="13")


# ---------------------------------------------------------------------------
# Orders: targets, start of activation, throws, Impulse 4 (base-rules §4, §5.6, §7, §12)

_THROWN_ORDERS = ("grenade", "smoke_grenade", "rifle_grenade")


def _throw_range(order_id: str) -> tuple[int, int]:
    return RIFLE_GRENADE_RANGE if order_id == "rifle_grenade" else GRENADE_RANGE


def _can_be_charged(game: GameContext, target: Character) -> bool:
    """A hex with 2+ defenders or a Fortified Building cannot be charged (§11; C2 27.2)."""
    h = target.hex
    if h is None:
        return False
    terrain = (game.board.terrain_of(h), *game.board.overlays_of(h))
    if any(t.id == "fortified_building" for t in terrain):
        return False
    defenders = [c for c in game.state.active(target.side) if c.hex == h]
    return len(defenders) < 2


def order_targets(game: GameContext, ch: Character, order: Order) -> list[tuple[str, str]] | None:
    """Targets an order needs, as (key, label), or None (base-rules §12, §11, §5.3).

    Grenade and Smoke Grenade: hexes 1-3 away in LOS of ``ch`` (keys ``CC.RR``); Rifle Grenade
    5-12 hexes. Charge: Known opponents within 4 hexes that can be charged (not in a Fortified
    Building, not 2+ defenders; keys character ids). None for other orders, or when there is
    no legal target (a Charge then moves by its direction string, §11).
    """
    if ch.hex is None:
        return None
    if order.id in _THROWN_ORDERS:
        lo, hi = _throw_range(order.id)
        out = []
        for h in _within(game, ch.hex, hi):
            d = game.distance(ch.hex, h)
            if d < lo or not game.sight(ch, h).clear:
                continue
            known = [c for c in game.opponents(ch) if c.hex == h and c.revealed]
            label = f"{h} ({d} hex{'es' if d > 1 else ''}, {game.board.terrain_of(h).name}"
            label += f", {len(known)} Known enemy)" if known else ")"
            out.append((str(h), label))
        return out or None
    if order.id == "charge":
        rank = _roster_index(game)
        cands = [
            c
            for c in game.opponents(ch)
            if c.revealed
            and not c.dummy
            and game.distance(ch.hex, c.hex) <= CHARGE_RANGE
            and _can_be_charged(game, c)
        ]
        cands.sort(key=lambda c: (game.distance(ch.hex, c.hex), rank[c.id]))
        return [(c.id, f"{c.name} on {c.hex} ({game.distance(ch.hex, c.hex)} hexes)") for c in cands] or None
    return None


def start_of_activation(game: GameContext, ch: Character) -> bool:
    """Step 4 a) i): passive start-of-activation effects (base-rules §1 Step 4).

    An Unprepared enemy alerted earlier (``ch.acted["unprepared_draw"]``) draws his card now
    (``game.enemy.unprepared_activation``) and does nothing
    more (§5.6): returns False. A
    Rally order on Impulse 1 rolls the Rally Check (RC) against effective TQ + the LDR of the
    best other same-side leader within his LDR hexes (7.17 [house]). Returns True otherwise.
    """
    if game.enemy.unprepared_activation(game, ch):
        return False
    if game.state.flow.impulse == 1 and ch.order is not None and ch.order.order == "rally" and not ch.dummy:
        rally_check(game, ch)
    return True


def rally_check(game: GameContext, ch: Character) -> None:
    """The Rally Check of a Rally order (base-rules §7, 7.17): d10 vs effective TQ + leader LDR."""
    leaders = [
        c
        for c in game.state.active(ch.side)
        if c.id != ch.id and c.ldr > 0 and not c.dummy and game.distance(c.hex, ch.hex) <= c.ldr
    ]
    best = max(leaders, key=lambda c: c.ldr, default=None)
    bonus = best.ldr if best is not None else 0
    target = ch.effective_tq + bonus
    face = game.dice.d10(f"RC: {ch.name} (Rally, 7.17)").total
    outcome = game.data.checks.resolve(CheckKind.RC, face, target)
    before = ch.morale
    ch.morale = game.data.checks.apply(before, outcome)
    lead = f" + LDR {bonus} of {best.name}" if best is not None else ""
    game.emit(
        "rally",
        f"{ch.name} Rally Check: {face} against TQ {ch.effective_tq}{lead} = {target} "
        f"({outcome.result.value.replace('_', ' ')}): "
        f"{before.value.capitalize()} -> {ch.morale.value.capitalize()}.",
        rule="7, 7.17",
        actor=ch.id,
        data={
            "roll": face,
            "target": target,
            "leader": best.id if best else None,
            "before": before.value,
            "after": ch.morale.value,
        },
    )


def _carried(game: GameContext, ch: Character, kind: WeaponKind) -> tuple[int, str] | None:
    for w in ch.weapons:
        if w.weapon in game.data.weapons and game.data.weapons.get(w.weapon).kind is kind:
            return w.ws, w.weapon
    return None


def _throw_problem(game: GameContext, ch: Character, h: Hex | None, lo: int, hi: int) -> str | None:
    if h is None or not _on_board(game, h):
        return "no target hex"
    d = game.distance(ch.hex, h)
    if not lo <= d <= hi:
        return f"{h} is {d} hexes away (range {lo}-{hi})"
    if not game.sight(ch, h).clear:
        return f"no LOS to {h}"
    return None


def throw(game: GameContext, ch: Character, order: Order) -> None:
    """The F step of a Grenade, Smoke Grenade or Rifle Grenade order: one throw (base-rules §12).

    The target is the order's hex (``ch.order.target``: a ``CC.RR`` hex, or a character id
    whose hex is taken). Out of range (1-3; rifle grenade 5-12) or LOS: an Enemy retargets to
    the nearest Spotted Friendly in range and LOS, else does not throw; a Friendly does not
    throw [house]. The thrower is revealed [house]. A Grenade Check (TQC) failure lands the
    grenade 1 hex off in a d6 direction (off the map: lost); rifle grenades take no check
    [house]. The grenade is recorded in ``markers.grenades`` and explodes in Step 5 a); a smoke
    grenade with ``smoke_grenade_timing == "immediate"`` is Smoke at once.
    """
    st = game.state
    if order.id not in _THROWN_ORDERS or ch.hex is None:
        return
    name = order.name
    if ch.dummy:
        game.emit("no_throw", f"A dummy does not throw ({name}).", rule="3", actor=ch.id)
        return
    lo, hi = _throw_range(order.id)
    target = None
    if ch.order is not None and ch.order.target:
        target = _hex_of(ch.order.target)
        if target is None and ch.order.target in st.characters:
            target = st.characters[ch.order.target].hex
    problem = _throw_problem(game, ch, target, lo, hi)
    if problem is not None:
        if ch.side is Side.FRIENDLY:
            game.emit(
                "no_throw",
                f"{ch.name} does not throw: {problem} (house rule).",
                rule="12 step 2 [house]",
                actor=ch.id,
                data={"order": order.id, "target": str(target) if target else None},
            )
            return
        new = _retarget(game, ch, lo, hi)
        if new is None:
            game.emit(
                "no_throw",
                f"{ch.name} does not throw: {problem}, and no Spotted Friendly is in range and LOS.",
                rule="12 step 2",
                actor=ch.id,
                data={"order": order.id},
            )
            return
        game.emit(
            "retarget",
            f"{ch.name} retargets his {name}: {problem}; the nearest Spotted Friendly in range and LOS "
            f"is {new.name} on {new.hex}.",
            rule="12 step 2",
            actor=ch.id,
            data={
                "order": order.id,
                "was": str(target) if target else None,
                "to": str(new.hex),
                "target": new.id,
            },
        )
        target = new.hex
    assert target is not None
    distance_thrown = game.distance(ch.hex, target)
    # Near/Far WS: the counter's grenade WS (else 2), the launcher's WS + band for a rifle grenade.
    weapon_id: str | None
    if order.id == "rifle_grenade":
        launcher = _carried(game, ch, WeaponKind.RIFLE_GRENADE)
        if launcher is None:
            game.emit("no_throw", f"{ch.name} has no rifle grenade launcher.", rule="12", actor=ch.id)
            return
        ws, weapon_id = launcher
        band = game.data.weapons.get(weapon_id).band_modifier(distance_thrown) or 0
        ws += band
    elif order.id == "grenade":
        carried = _carried(game, ch, WeaponKind.GRENADE)
        ws, weapon_id = carried if carried is not None else (GRENADE_DEFAULT_WS, "hand_grenade")
    else:
        carried = _carried(game, ch, WeaponKind.SMOKE_GRENADE)
        ws, weapon_id = carried if carried is not None else (0, "smoke_grenade")
    ws += ch.wound_penalty
    was_revealed = ch.revealed
    _reveal(game, ch, f"he throws a {name.lower()}", "9 item 8 [house]")
    landed: Hex | None = target
    check: dict[str, Any] = {}
    if order.id != "rifle_grenade":
        face = game.dice.d10(f"Grenade Check: {ch.name} ({name} at {target})").total
        passed = roll_result(face, ch.effective_tq).passed
        check = {"roll": face, "target": ch.effective_tq, "passed": passed}
        if not passed:
            direction = game.dice.d6(f"grenade deviation: {ch.name}").total
            landed = game.board.neighbour_hex(target, direction)
            check["direction"] = direction
    data = {
        "order": order.id,
        "target": str(target),
        "landed": str(landed) if landed else None,
        "range": distance_thrown,
        "ws": ws,
        **check,
    }
    how = ""
    if check:
        how = f" Grenade Check {check['roll']} against TQ {check['target']}: " + (
            "on target." if check["passed"] else f"failed, it lands 1 hex off toward {check['direction']}"
        )
        if not check["passed"]:
            how += f" on {landed}." if landed else ", off the map."
    game.emit(
        "throw",
        f"{ch.name} {'fires' if order.id == 'rifle_grenade' else 'throws'} a {name.lower()} at {target} "
        f"({distance_thrown} hex{'es' if distance_thrown != 1 else ''})"
        + ("" if was_revealed else " and is revealed")
        + "."
        + how,
        rule="12" + ("; 9 item 8 [house]" if not was_revealed else ""),
        actor=ch.id,
        data=data,
    )
    if landed is None:
        return
    kind = "grenade" if order.id == "rifle_grenade" else order.id
    if kind == "smoke_grenade" and game.options.smoke_grenade_timing == "immediate":
        place_smoke(
            game,
            landed,
            "smoke",
            cause=f"smoke grenade of {ch.name}",
            rule="12 [immediate]",
            placed=_turn(game) - 1,
        )
        return
    st.markers.grenades.append(
        {
            "kind": kind,
            "hex": str(landed),
            "thrower": ch.id,
            "turn": _turn(game),
            "ws": ws,
            "range": distance_thrown,
            "weapon": weapon_id,
            "rifle": order.id == "rifle_grenade",
        }
    )


def _retarget(game: GameContext, ch: Character, lo: int, hi: int) -> Character | None:
    """The nearest Spotted, active Friendly in range and LOS of an Enemy thrower (§12 step 2)."""
    rank = _roster_index(game)
    cands = [
        c
        for c in game.opponents(ch)
        if c.revealed and lo <= game.distance(ch.hex, c.hex) <= hi and game.sees(ch, c)
    ]
    return min(cands, key=lambda c: (game.distance(ch.hex, c.hex), rank[c.id]), default=None)


def impulse_four_effects(game: GameContext, ch: Character, order: Order) -> None:
    """Impulse 4 effects of Reload, Medical Aid, Search and Plan (base-rules §4; 7.12, 7.14; C2 30).

    Reload: ammo Full. Medical Aid (Medics and trained medics only): a TQC (+2 for a trained
    medic) removes the newest wound of the comrade most in need in the same hex (option
    ``medical_aid_range``: adjacent too). Search: Unknown opponents within 1 hex are revealed
    (dummies removed). Plan: a leader (LDR >= 1; option ``plan_roll``: d10 <= LDR) sets the top
    Friendly card aside for next turn's hand.
    """
    if order.id == "reload":
        _ammo_full(game, [ch], "Reload", "4; 10.10")
    elif order.id == "medical_aid":
        medical_aid(game, ch)
    elif order.id == "search":
        search(game, ch)
    elif order.id == "plan":
        plan(game, ch)


def medical_aid(game: GameContext, ch: Character) -> None:
    """Medical Aid on Impulse 4 (7.14; base-rules §8; C2 30.0)."""
    if not (ch.trained_medic or ch.has_skill("medic")):
        game.emit("medical_aid", f"{ch.name} is no Medic: no Medical Aid.", rule="7.14", actor=ch.id)
        return
    reach = game.options.medical_aid_range
    rank = _roster_index(game)
    severity = {Wound.BAD: 2, Wound.LIGHT: 1}
    patients = [
        c
        for c in game.state.on_side(ch.side)
        if c.id != ch.id and c.on_map and c.wounds and game.distance(c.hex, ch.hex) <= reach
    ]
    if not patients:
        game.emit(
            "medical_aid", f"{ch.name} finds no wounded comrade within reach.", rule="7.14", actor=ch.id
        )
        return
    patient = min(
        patients,
        key=lambda c: (
            c.status is not Status.INCAPACITATED,
            -severity[c.wounds[-1]],
            -len(c.wounds),
            rank[c.id],
        ),
    )
    bonus = 2 if ch.trained_medic else 0
    target = ch.effective_tq + bonus
    face = game.dice.d10(f"Medical Aid TQC: {ch.name} treats {patient.name}").total
    passed = roll_result(face, target).passed
    wound = patient.wounds[-1]
    if passed:
        patient.wounds.pop()
        _out_of_action_check(patient)
    game.emit(
        "medical_aid",
        f"{ch.name} treats {patient.name}: TQC {face} against {target}"
        + (" (trained medic +2)" if bonus else "")
        + (f": the {wound.value.capitalize()} Wound is removed." if passed else ": no effect."),
        rule="7.14; C2 30.0",
        actor=ch.id,
        data={"patient": patient.id, "roll": face, "target": target, "passed": passed, "wound": wound.value},
    )


def search(game: GameContext, ch: Character) -> None:
    """Search on Impulse 4: Unknown opponents and dummies within 1 hex are revealed (base-rules §4)."""
    found = [c for c in game.opponents(ch) if not c.revealed and game.distance(c.hex, ch.hex) <= SEARCH_RANGE]
    if not found:
        game.emit("search", f"{ch.name} searches and finds nothing.", rule="4", actor=ch.id)
        return
    game.emit(
        "search",
        f"{ch.name} searches around {ch.hex}.",
        rule="4",
        actor=ch.id,
        data={"found": [c.id for c in found]},
    )
    for c in found:
        _reveal(game, c, f"found by {ch.name}'s Search", "4")


def plan(game: GameContext, ch: Character) -> None:
    """Plan on Impulse 4 (7.12 [house]): a Friendly leader sets one Friendly card aside."""
    if ch.side is not Side.FRIENDLY or ch.ldr < 1:
        game.emit(
            "plan", f"{ch.name} is no Friendly leader: Plan has no effect.", rule="7.12 [house]", actor=ch.id
        )
        return
    if game.options.plan_roll:
        face = game.dice.d10(f"Plan roll: {ch.name} (LDR {ch.ldr})").total
        if not roll_result(face, ch.ldr).passed:
            game.emit(
                "plan",
                f"{ch.name} plans but rolls {face} against LDR {ch.ldr}: no card.",
                rule="7.12 [house plan_roll]",
                actor=ch.id,
                data={"roll": face, "target": ch.ldr},
            )
            return
    card = game.friendly_deck.draw(game.dice, f"Plan: {ch.name} sets a card aside (7.12)").card
    game.state.cards.plan.append(card)
    game.emit(
        "plan",
        f"{ch.name} plans ahead: card {card} is set aside for next turn's hand.",
        rule="7.12",
        actor=ch.id,
        data={"card": card},
    )


# ---------------------------------------------------------------------------
# The End Phase (base-rules §1 Step 5)


def end_phase_explosions(game: GameContext) -> None:
    """Step 5 a): grenades, shells and C4 explode, smoke grenades become Smoke (§12, §14).

    In the order placed. C4 waits until the turn after it was set and then explodes on d10 0-2,
    always on the last turn (§14).
    """
    st = game.state
    if not st.markers.grenades:
        return
    pending = list(st.markers.grenades)
    st.markers.grenades.clear()
    for rec in pending:
        kind = rec.get("kind")
        if kind == "grenade":
            _explode_grenade(game, rec)
        elif kind == "smoke_grenade":
            place_smoke(game, Hex.parse(rec["hex"]), "smoke", cause="a smoke grenade bursts", rule="12; 13")
        elif kind == "shell":
            _explode_shell(game, rec)
        elif kind == "c4":
            if rec.get("turn", 0) >= _turn(game):
                st.markers.grenades.append(rec)
                continue
            last = _turn(game) >= game.scenario.turns
            face = None if last else game.dice.d10(f"C4 on {rec['hex']} (14)").total
            if last or (face is not None and face <= C4_EXPLODES_ON):
                _explode_shell(game, {**rec, "calibre": "c4"})
            else:
                game.emit("explosion", f"The C4 on {rec['hex']} does not go off ({face}).", rule="14")
                st.markers.grenades.append(rec)
        else:
            game.emit("explosion", f"Unknown marker {kind!r} on {rec.get('hex')} is removed.", rule="12")


def _grenade_cell(game: GameContext, c: Character, rec: dict[str, Any]) -> tuple[int, str, bool]:
    """(C, chart row, capped) for ``c``: the fire chart cell of his terrain at his order's group
    (the more protective of terrain and overlay rows); the (M) cap as §12 step 7 allows."""
    o = game.order_def(c)
    if o is None or o.fire_group is None:
        o = game.data.orders.get("waiting" if c.side is Side.ENEMY else "hide")
    group = o.fire_group if o.fire_group is not None else 4
    h = c.hex
    rows = [game.board.terrain_of(h).chart_row, *(t.chart_row for t in game.board.overlays_of(h) if t.cover)]
    cells = [(game.data.charts.fire_cell(r, group), r) for r in dict.fromkeys(rows)]
    cell, row = min(cells, key=lambda x: x[0].modifier)
    capped = cell.morale_only and row not in NO_CAP_ROWS
    if capped and row in BUILDING_CAP_ROWS and rec.get("range", 99) <= 1:
        capped = False
    return cell.modifier, row, capped


def _explode_grenade(game: GameContext, rec: dict[str, Any]) -> None:
    """A grenade explodes (base-rules §12 steps 4-8)."""
    st = game.state
    h = Hex.parse(rec["hex"])
    thrower = st.characters.get(rec.get("thrower") or "")
    who = thrower.name if thrower else "a grenade"
    ws = rec.get("ws", GRENADE_DEFAULT_WS)
    weapon = game.data.weapons.get(rec.get("weapon") or "hand_grenade")
    blast = weapon.grenade or game.data.weapons.get("hand_grenade").grenade
    game.emit(
        "explosion",
        f"The grenade of {who} explodes on {h}.",
        rule="12 step 4",
        data={"hex": str(h), "thrower": rec.get("thrower")},
    )
    for c in st.at(h):
        _reveal(game, c, "a grenade explodes in his hex", "12 step 5")
    hit: list[str] = []
    for c in st.at(h):
        if c.dummy or not c.on_map or c.hex != h or not _in_the_open(game, c):
            continue
        mod, row, capped = _grenade_cell(game, c, rec)
        face = game.dice.d10(f"grenade Near/Far: {c.name} (WS {ws} {mod:+d})").total
        near = roll_result(face, ws + mod).passed
        dice, frag = (blast.near_dice, blast.near_frag) if near else (blast.far_dice, blast.far_frag)
        faces = [game.dice.d10(f"grenade fragment {k + 1}/{dice}: {c.name}").total for k in range(dice)]
        hits = sum(1 for f in faces if roll_result(f, frag + mod).passed)
        game.emit(
            "fragments",
            f"{c.name} on {h} ({row}, C {mod:+d}): Near/Far {face} against {ws + mod}: "
            f"{'Near' if near else 'Far'}; {dice} fragment dice at {frag + mod}: {faces}, {hits} hit(s)"
            + (" (a hit causes only an MC here)." if capped and hits else "."),
            rule="12 step 5",
            actor=c.id,
            data={
                "near": near,
                "roll": face,
                "target": ws + mod,
                "c": mod,
                "row": row,
                "fragments": faces,
                "fragment_target": frag + mod,
                "hits": hits,
                "capped": capped,
            },
        )
        if hits:
            hit.append(c.id)
        for _ in range(hits):
            if not c.on_map:
                break
            if capped:
                _morale_check(game, c, cause=f"grenade fragment on {h} ((M) cell)", rule="12 step 7")
            else:
                _wound(game, c, cause=f"grenade fragment on {h}", rule="12 step 5")
    _blast_morale(game, h, hit, "the grenade")
    _alert_near(game, h, BLAST_ALERT_RANGE, f"a grenade explodes on {h}", "5.6 #5")
    place_smoke(game, h, "fading", cause="a grenade explodes", rule="12 step 8; 13")


def _in_the_open(game: GameContext, c: Character) -> bool:
    """Whether blasts and fragments reach ``c``: on foot, or riding a Jeep or Truck.

    Men inside an AFV or Half-Track are hit through the vehicle instead (C2 31.10.7, 31.10.12).
    """
    if c.vehicle is None:
        return True
    v = game.state.vehicles.get(c.vehicle)
    if v is None:
        return True
    return game.data.vehicles.get(v.type).kind.value in ("jeep", "truck")


def _blast_morale(game: GameContext, h: Hex, hit: list[str], what: str) -> None:
    """Blast MC for everyone in the hex or adjacent (§12 step 6); with ``blast_mc_only_if_unhurt``
    those in the hex who were hit take none."""
    st = game.state
    only_unhurt = game.options.blast_mc_only_if_unhurt
    for x in _within(game, h, 1):
        for c in st.at(x):
            if not c.is_active or c.dummy or not _in_the_open(game, c):
                continue
            if only_unhurt and x == h and c.id in hit:
                continue
            _morale_check(game, c, cause=f"blast of {what} on {h}", rule="12 step 6")


def end_phase_environment(game: GameContext) -> None:
    """Step 5 a), d), e): smoke fades and drifts (§13), fire damage, smoke, growth, spread and
    extinguishing (C2 29.2-29.4), illumination is removed (§15), Heavy Rain may turn the ground
    to Mud (C2 28.1), and this turn's card effects end."""
    _smoke_end_phase(game)
    _fire_end_phase(game)
    st = game.state
    if st.markers.illuminated:
        st.markers.illuminated.clear()
        game.emit("illumination", "Illumination markers are removed.", rule="15")
    heavy_rain_mud(game)
    clear_turn_effects(game)


def heavy_rain_mud(game: GameContext) -> bool:
    """End of turn in Heavy Rain: d10, on a 9 the ground is Mud for the rest of the scenario and
    no more rolls are made (C2 28.1). Returns True if Mud set in now."""
    st = game.state
    if st.weather != "heavy_rain" or st.ground == "mud":
        return False
    face = game.dice.d10("heavy rain: does the ground turn to Mud? (C2 28.1)").total
    if face != 9:
        game.emit("weather", f"Heavy rain: {face}, the ground holds.", rule="C2 28.1", data={"roll": face})
        return False
    st.ground = "mud"
    st.flags["mud_from_turn"] = _turn(game)
    game.emit(
        "weather",
        "Heavy rain: a 9, the ground turns to Mud for the rest of the scenario (no Sprint).",
        rule="C2 28.1, 28.2",
        data={"roll": face, "ground": "mud"},
    )
    return True


# ---------------------------------------------------------------------------
# Victory (base-rules §19)


def vp_band(vp: int) -> str:
    """The name of the §19 VP band a score falls in (superb ... demotion)."""
    for low, name in VP_BANDS:
        if vp >= low:
            return name
    return "demotion"


def _victory_values(game: GameContext) -> dict[str, Any]:
    """VP values: the scenario's ``victory`` section where it has one, else the module constants."""
    v = getattr(game.scenario, "victory", None)
    return {
        "kill": getattr(v, "kill", VP_ENEMY_KILLED),
        "leader_kill": getattr(v, "leader_kill", VP_ENEMY_LEADER_KILLED),
        "prisoner": getattr(v, "prisoner", VP_ENEMY_KILLED if VP_PRISONER_COUNTS_AS_KILLED else 0),
        "friendly_killed": getattr(v, "friendly_killed", -VP_FRIENDLY_KILLED),
        "friendly_lost": getattr(v, "friendly_captured", -VP_FRIENDLY_LOST),
        "objectives": tuple(getattr(v, "objectives", ())),
        "exits": tuple(getattr(v, "exits", ())),
        "result": getattr(v, "result", None),
        "bands": tuple(getattr(v, "bands", ())),
    }


def _win_threshold(values: dict[str, Any]) -> int:
    """The VP of a marginal result: the scenario's "marginal" band, else :data:`VP_TO_WIN`."""
    for band in values["bands"]:
        if getattr(band, "result", None) == "marginal" and getattr(band, "min_vp", None) is not None:
            return band.min_vp
    return VP_TO_WIN


def final_victory(game: GameContext) -> None:
    """The victory check at the end of the game (base-rules §19 [reconstructed]; C2 23.3–23.4).

    First, incapacitated Friendlies with no active Friendly within 2 hexes are captured (C2
    23.3; the scenario's ``prisoners`` section may turn this off or change the range). Then
    the Friendly VP: + per Enemy killed or routed off (a leader, LDR 1+, more), + per Enemy
    prisoner (guarded: an active Friendly in his hex, if the scenario asks, C2 23.4), + held
    objectives and exits; - per Friendly killed, - per Friendly incapacitated or captured.
    Values from the scenario's ``victory`` section, else the module constants
    (:data:`VP_ENEMY_KILLED`...). Dummies never count. Sets ``state.vp`` (``friendly``: the
    score; ``enemy``: the VP the Friendly losses gave away) and ``state.winner``
    (``"friendly"`` with a marginal result or better, 9 VP by default, else ``"enemy"``), and
    emits a summary naming the band.
    """
    st = game.state
    rules = getattr(game.scenario, "prisoners", None)
    capture = getattr(rules, "capture_incapacitated", True)
    reach = getattr(rules, "capture_range", CAPTURE_RANGE)
    guarded = getattr(rules, "guarded_prisoners", False)
    friends = [c for c in st.on_side(Side.FRIENDLY) if not c.dummy]
    for c in friends:
        if capture and c.status is Status.INCAPACITATED and c.hex is not None:
            near = [
                f for f in st.active(Side.FRIENDLY) if f.id != c.id and game.distance(f.hex, c.hex) <= reach
            ]
            if not near:
                c.status = Status.PRISONER
                game.emit(
                    "captured",
                    f"{c.name} lies incapacitated with no comrade within {reach} hexes: captured.",
                    rule="C2 23.3",
                    actor=c.id,
                )
    values = _victory_values(game)
    enemies = [c for c in st.on_side(Side.ENEMY) if not c.dummy]
    kills = [c for c in enemies if c.status in (Status.DEAD, Status.ROUTED_OFF)]
    prisoners = [
        c
        for c in enemies
        if c.status is Status.PRISONER
        and (not guarded or any(f.hex == c.hex for f in st.active(Side.FRIENDLY) if c.hex is not None))
    ]
    gained = sum(values["leader_kill"] if c.ldr > 0 else values["kill"] for c in kills)
    gained += values["prisoner"] * len(prisoners)
    held: list[str] = []
    for obj in values["objectives"]:
        side = getattr(obj, "side", Side.FRIENDLY)
        h = Hex.parse(obj.hex)
        here = [c for c in st.active() if c.hex == h and not c.dummy]
        if any(c.side is side for c in here) and not any(c.side is not side for c in here):
            held.append(obj.hex)
            gained += obj.vp if side is Side.FRIENDLY else -obj.vp
    exited = [c for c in friends if c.status is Status.EXITED]
    exit_specs = [e for e in values["exits"] if getattr(e, "side", Side.FRIENDLY) is Side.FRIENDLY]
    if exit_specs:
        gained += exit_specs[0].vp * len(exited)
    dead = [c for c in friends if c.status is Status.DEAD]
    lost = [c for c in friends if c.status in (Status.INCAPACITATED, Status.PRISONER)]
    losses = len(dead) * values["friendly_killed"] + len(lost) * values["friendly_lost"]
    score = gained - losses
    st.vp = {"friendly": score, "enemy": losses}
    st.winner = "friendly" if score >= _win_threshold(values) else "enemy"
    band = values["result"](score) if values["result"] is not None else vp_band(score)
    game.emit(
        "victory",
        f"Victory points: +{gained} for {len(kills)} Enemy casualties, {len(prisoners)} prisoner(s)"
        + (f", objectives {', '.join(held)}" if held else "")
        + (f", {len(exited)} exited" if exit_specs and exited else "")
        + f"; -{losses} for Friendly losses ({len(dead)} killed, {len(lost)} incapacitated or captured): "
        f"{score} VP, {band}. "
        + ("The Friendly side wins." if st.winner == "friendly" else "The Enemy holds."),
        rule="19; C2 23.3-23.4",
        data={
            "vp": score,
            "band": band,
            "winner": st.winner,
            "enemy_casualties": [c.id for c in kills],
            "enemy_prisoners": [c.id for c in prisoners],
            "objectives": held,
            "friendly_killed": [c.id for c in dead],
            "friendly_lost": [c.id for c in lost],
        },
    )
