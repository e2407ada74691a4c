"""The Enemy: the Enemy Card and Order Phase and Enemy order assignment (base-rules §1 Step 3, §5).

Every function takes the :class:`~solo.engine.game.Game` first. Every choice the
Enemy makes here emits an event that explains itself (DESIGN.md "Every Enemy
decision explains itself"): the card and its initiative, Cover/Open and the
morale row read, the checks rolled with target and face, the conversions and
their rules, and the final order.

The phase (:func:`enemy_card_and_order_phase`, base-rules §1 Step 3):

1. reinforcements due this turn (:func:`place_reinforcements`, base-rules §5.7);
2. pre-passes "at the start of the phase": an Enemy trained medic in a hex with
   a wounded comrade takes Medical Aid (C2 30.2); two or more enemies in a
   Barbed Wire hex: the lowest TQ takes Hide (C2 27.7);
3. team by team in scenario order, member by member (base-rules §2): skip the
   ordered, the Waiting (no order, §5.6) and those whose Unprepared draw is
   pending; an opponent in the hex gives Melee without a card (§5.3 step 3);
   the others draw a card (one per character, rule 9.1; one per team in a
   Large Battle, 9.2) and read it (:func:`order_for`). The first card drawn for
   a team sets its initiative (9.1); a team that drew none draws one for its
   initiative. With C2 23.5 (``optional_enemy_activation``) only that
   initiative card is drawn here and orders wait for :func:`assign_on_activation`.

Hooks other modules call: :func:`alert` (a Waiting enemy becomes Alert;
Prepared/Unprepared, §5.6), :func:`unprepared_activation` (a) i) of an
activation), :func:`assign_on_activation` (C2 23.5), :func:`choose_fire_target`,
:func:`choose_enemy_weapon` (13.0, C2 23.2, 30.1), :func:`sniper_aims`
(C2 24.1) and :func:`duck_back_on_entering` (9.4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.hexes import Hex, line, rotate, wedge_directions
from solo.data.cards import CardRow, DirectionString, EnemyOrderCard, EnemyOrderEntry
from solo.data.orders import Order, OrderFlag, Slot, TrackStep
from solo.data.tables import CardString, CheckKind, CheckOutcome, MoraleState
from solo.data.weapons import Weapon, WeaponFlag, WeaponKind
from solo.rules.state import AmmoState, Character, GivenOrder, Phase, Side, Team

if TYPE_CHECKING:
    from solo.rules.context import GameContext

# ---------------------------------------------------------------------------
# Constants (rule values; [house] where the rules give none)

GC_RANGE = 4
"""Hexes within which a Spotted Friendly allows the G and C checks (base-rules §5.3 step 8, 9.6)."""
MEDIC_RANGE = 4
"""Hexes within which an Enemy trained medic goes to a wounded comrade (C2 30.2)."""
MEDIC_REDRAW_LIMIT = 20
"""[house] At most this many extra cards for a trained medic who keeps drawing fire orders
(C2 30.2 "draw again"); past it he takes Hide. Never reached with the house deck."""
MEDIC_TARGET_TQ_BONUS = 2
"""C2 30.1: an Enemy fires on a Friendly trained medic only if he fails a TQ+2 roll."""
FIRE_CODES = ("AF", "RF", "SF", "RG")
"""Card codes that are fire orders: No Ammo turns them into Reload (10.10); a trained medic
draws again (C2 30.2)."""
DUCK_BACK_EXEMPT = ("run_and_gun", "grenade", "rifle_grenade", "smoke_grenade", "charge", "duck_back")
"""Orders that never Duck Back on entering terrain (9.4; base-rules §5.7)."""
SPRINT_TO_EVADE_GROUNDS = ("mud", "snow")
"""Ground conditions in which an Enemy Sprint becomes Evade, same directions (C2 28.2)."""
DEEP_SNOW = "deep_snow"
"""Deep Snow: Sprint, Evade and Run & Gun become Sneak, same directions (C2 28.2)."""
DEEP_SNOW_TO_SNEAK = ("sprint", "evade", "run_and_gun")
WIRE = "barbed_wire"
"""Terrain id of Barbed Wire (C2 27.7)."""
FORTIFIED = "fortified_building"
"""Terrain id of a Fortified Building: never the target of a Charge (C2 27.2)."""
UNPREPARED_KEY = "unprepared_draw"
"""``ch.acted`` key: an Unprepared enemy alerted this turn draws at his next activation (§5.6)."""
SNIPER_KEY = "sniper_aim"
"""``ch.acted`` key: a Sniper passed his Impulse 2 TQC: no fire on I2, +2 WS on I4 (C2 24.1)."""
SNIPER_BONUS = 2
"""C2 24.1 Sniper: +2 WS to the Aimed Fire of Impulse 4."""
SNIPER_RANGE = 3
"""C2 24.1: the Sniper aims when the nearest Spotted Friendly is this many hexes or more away."""
ENEMY_MEDIC_DOWN = "enemy_trained_medic_down"
"""``state.flags`` key set (by the wound code) once an Enemy trained medic is killed or Badly
wounded: from then on Enemies fire on Friendly trained medics freely (C2 30.2)."""
_THROWN_KINDS = (WeaponKind.GRENADE, WeaponKind.SMOKE_GRENADE, WeaponKind.RIFLE_GRENADE)
_NOT_FIRED_BY_ENEMY = (*_THROWN_KINDS, WeaponKind.KNIFE, WeaponKind.LIGHT_AT, WeaponKind.MAIN_GUN)
"""[house] Weapons an Enemy never picks for a fire action at a man: thrown (they have their own
orders, §12), the knife (C2 24.1: an Enemy uses Knife Expert only in melee), light AT and guns
(kept for vehicles, C2 32)."""
_DIRECTION_STRINGS = tuple(
    DirectionString.parse(k)
    for k in (
        "1", "2", "3", "4", "5", "6", "1/2", "2/1", "2/3", "3/2", "3/4", "4/3",
        "4/5", "5/4", "5/6", "6/5", "6/1", "1/6",
    )
)  # fmt: skip
"""Every direction string, in the order tried when the Enemy must pick one (C2 30.2)."""


# ---------------------------------------------------------------------------
# Step 3: the Enemy Card and Order Phase


def enemy_card_and_order_phase(game: GameContext) -> None:
    """Step 3 (base-rules §1, §5.3; rules 9.1, 9.2; C2 23.5, 27.7, 30.2): cards, initiatives, orders.

    Reinforcements first, then the trained-medic and barbed-wire pre-passes,
    then team by team in scenario order (see the module docstring). Sets
    ``team.initiative`` and ``team.first_card`` of every Enemy team with a man
    on the map, and remembers every card drawn in ``state.cards.enemy_this_turn``
    (``"team:<id>"`` and per character id) until :func:`return_enemy_cards`.
    """
    st = game.state
    place_reinforcements(game)
    _medic_prepass(game)
    _wire_prepass(game)
    deferred = bool(game.options.optional_enemy_activation)
    field = _Field(game)
    for team in st.teams.values():
        if team.side is not Side.ENEMY or team.id in st.vehicles:  # crews: the VOM (solo.enemy.crews)
            continue
        on_map = [st.characters[c] for c in team.members]
        on_map = [c for c in on_map if c.is_active and c.hex is not None]
        if not on_map:
            continue
        # Passengers ride under the crew rules (solo.enemy.crews), but their team still takes its
        # initiative from a card (9.1) so that they activate.
        members = [c for c in on_map if c.vehicle is None]
        waiting: list[Character] = []
        shared: EnemyOrderCard | None = None
        for ch in members:
            if ch.order is not None:
                continue
            if not ch.alert:
                waiting.append(ch)
                continue
            if ch.acted.get(UNPREPARED_KEY):
                continue
            if field.opponent_here(ch):
                _give(game, ch, _lookup(game, ch, None, via="", redraw=None, field=field))
                continue
            if deferred:
                continue
            if shared is not None:
                card, via = shared, "reads the team's card"
            else:
                card = _draw_for_team(game, team, f"{ch.name}'s order (9.1)")
                via = "draws"
                if _large_battle(game):
                    shared = card
            st.cards.enemy_this_turn[ch.id] = card.id
            _give(game, ch, _lookup(game, ch, card, via=via, redraw=_phase_redraw(game, ch), field=field))
        if team.first_card is None:
            why = "initiative only (C2 23.5)" if deferred else "initiative: no Alert man drew a card (9.1)"
            _draw_for_team(game, team, why)
        if waiting:
            names = ", ".join(c.name for c in waiting)
            game.emit(
                "enemy_waiting",
                f"{team.name}: {names} "
                + ("is Waiting and gets" if len(waiting) == 1 else "are Waiting and get")
                + " no order (base-rules §5.6).",
                rule="§5.6",
                actor=team.id,
                data={"team": team.id, "waiting": [c.id for c in waiting]},
            )


def return_enemy_cards(game: GameContext) -> None:
    """Step 5 e): the turn's Enemy cards go to the discards (base-rules §5.5); initiatives clear."""
    st = game.state
    for card_id in dict.fromkeys(st.cards.enemy_this_turn.values()):
        game.enemy_deck.discard(card_id)
    st.cards.enemy_this_turn.clear()
    for team in st.teams.values():
        if team.side is Side.ENEMY:
            team.initiative = None
            team.first_card = None


def place_reinforcements(game: GameContext) -> list[Character]:
    """Step 3 a): place the reinforcements due this turn (base-rules §1, §5.7).

    Delegates to :func:`solo.data.scenario.place_reinforcements`: each due wave
    enters Alert and Prepared, with its forced order if the scenario gives one
    (e.g. Evade along a string, §5.7); those without one are ordered by this
    phase like any Alert enemy. Does nothing when the scenario has no
    reinforcements. Returns the characters placed.
    """
    if not game.state.flags.get("reinforcements"):
        return []
    from solo.rules import setup

    return list(setup.place_reinforcements(game))


# ---------------------------------------------------------------------------
# Hooks called by other modules


def alert(game: GameContext, ch: Character, reason: str, rule: str) -> GivenOrder | None:
    """A Waiting enemy becomes Alert (base-rules §5.6); Prepared ones take an order at once.

    ``reason`` is plain words for the log ("a weapon fired within 10 hexes"),
    ``rule`` its rule ("§5.6 condition 1"). Does nothing for a Friendly, an
    inactive or an already Alert character. In the Action Phase and the Enemy
    phase a **Prepared** enemy draws a card now and takes its order (the card's
    initiative is ignored; the card is discarded once used, §5.5; in a Large
    Battle he reads his team's card, 9.2 [house]). An **Unprepared** enemy is
    marked (``ch.acted["unprepared_draw"]``) to draw in a) i) of his next
    activation and do nothing then (:func:`unprepared_activation`). Before the
    Enemy phase, the phase orders him; in the End Phase (conditions 6 and 8) he
    is simply ordered in the next Enemy phase [house]. Returns the order given
    now, if any.
    """
    if ch.side is not Side.ENEMY or ch.alert or not ch.is_active:
        return None
    ch.alert = True
    phase = game.state.flow.phase
    now = phase in (Phase.ACTION, Phase.ENEMY_CARD_ORDER)
    if not ch.prepared and phase in (
        Phase.ACTION,
        Phase.ENEMY_CARD_ORDER,
        Phase.FRIENDLY_CARD,
        Phase.FRIENDLY_ORDER,
    ):
        ch.acted[UNPREPARED_KEY] = True
        then = "Unprepared: he draws his card at his next activation and does nothing then"
    elif ch.prepared and now and ch.order is None and ch.hex is not None:
        then = "Prepared: he draws his card at once"
    elif phase in (Phase.FRIENDLY_CARD, Phase.FRIENDLY_ORDER):
        then = "he is ordered in this turn's Enemy Card and Order Phase"
    else:
        then = "he is ordered in the next Enemy Card and Order Phase"
    game.emit(
        "alert",
        f"{ch.name} becomes Alert: {reason} ({rule}); {then} (§5.6).",
        rule=f"{rule}, §5.6",
        actor=ch.id,
        data={"reason": reason, "prepared": ch.prepared, "phase": phase.value},
    )
    if not (ch.prepared and now and ch.order is None and ch.hex is not None):
        return None
    return _mid_turn_order(game, ch, "Prepared and just alerted, §5.6")


def unprepared_activation(game: GameContext, ch: Character) -> bool:
    """Step 4 a) i): an Unprepared enemy alerted earlier draws now and does nothing more (§5.6).

    Returns True when ``ch`` spends this activation drawing his card (the
    caller then ends his activation: he acts from the next Impulse); False
    otherwise. The lead calls this at the start of every Enemy activation.
    """
    if not ch.acted.pop(UNPREPARED_KEY, False):
        return False
    if not ch.is_active or ch.hex is None or ch.order is not None:
        return False
    _mid_turn_order(game, ch, "Unprepared, alerted earlier: he does nothing more this activation, §5.6")
    ch.acted["unprepared_idle"] = game.state.flow.impulse
    return True


def assign_on_activation(game: GameContext, ch: Character) -> GivenOrder | None:
    """C2 23.5: give an Alert enemy without an order his order now (team activation or fired upon).

    The lead calls it for each member at the start of a team's activation and
    when an Enemy without an order is fired upon. The card is one of the turn's
    draws (kept in ``enemy_this_turn`` until Step 5 e); in a Large Battle the
    man reads the team's initiative card (9.2). Does nothing (returns None) for
    the Waiting, the ordered, the inactive and an Unprepared man whose draw is
    pending. An opponent in the hex gives Melee without a card.
    """
    if not _can_take_order(ch) or not ch.alert or ch.acted.get(UNPREPARED_KEY):
        return None
    if _opponent_here(game, ch):
        return _give(game, ch, order_for(game, ch, None))
    st = game.state
    team = st.teams[ch.team]
    if _large_battle(game) and team.first_card is not None:
        card = game.data.enemy_deck.card(team.first_card)
        via = "reads the team's card"
    else:
        card = _draw_for_team(game, team, f"{ch.name}'s order on activation (C2 23.5)")
        via = "draws on activation (C2 23.5)"
    st.cards.enemy_this_turn[ch.id] = card.id
    return _give(game, ch, _lookup(game, ch, card, via=via, redraw=_phase_redraw(game, ch)))


# ---------------------------------------------------------------------------
# The lookup for one enemy (base-rules §5.3)


@attrs.define
class _Trace:
    """What the lookup did, for the explaining event."""

    parts: list[str] = attrs.field(factory=list)
    checks: list[dict[str, Any]] = attrs.field(factory=list)
    conversions: list[dict[str, Any]] = attrs.field(factory=list)
    rules: list[str] = attrs.field(factory=list)
    cards: list[str] = attrs.field(factory=list)

    def rule(self, *rules: str) -> None:
        for r in rules:
            if r not in self.rules:
                self.rules.append(r)


def order_for(
    game: GameContext,
    ch: Character,
    card: EnemyOrderCard | str | None,
    *,
    redraw: Callable[[], EnemyOrderCard] | None = None,
) -> GivenOrder | None:
    """The order Enemy ``ch`` takes from ``card`` (base-rules §5.3 steps 1, 3, 6-9), and its event.

    Emits one ``enemy_order`` event explaining the lookup and returns the
    order; does **not** give it (the caller sets ``ch.order``). Returns None,
    without an event, for a man who takes no order (5.3 step 1: dead,
    incapacitated, prisoner, off the map, already ordered; or Waiting, §5.6).

    Steps: an opponent in the hex → Melee, no row read (``card`` may be None);
    Berserk → Charge + berserk string, Rout → Evade + rout string (step 6);
    else the Cover/Open table (``game.in_cover``) and the row of his Morale
    State (step 7); the C then G check with a Spotted, targetable Friendly within
    4 hexes (step 8, TQC on effective TQ, a natural 9 fails); the conversions
    No Ammo → Reload (10.10), Mud/Snow/Deep Snow (C2 28.2), Barbed Wire (C2 27.7)
    (step 9). An Enemy trained medic draws again on a fire order unless a G/C
    flag can be acted on as an M check (C2 30.2); ``redraw`` gives those extra
    cards (default: drawn from the Enemy deck and discarded at once, §5.5).
    Dummies are ordered as Unknown enemies (base-rules §3).

    Raises ``ValueError`` when ``card`` is None but a card is needed.
    """
    if not _can_take_order(ch) or not ch.alert:
        return None
    if isinstance(card, str):
        card = game.data.enemy_deck.card(card)
    return _lookup(game, ch, card, via="draws", redraw=redraw)


def _lookup(
    game: GameContext,
    ch: Character,
    card: EnemyOrderCard | None,
    *,
    via: str,
    redraw: Callable[[], EnemyOrderCard] | None,
    why: str = "",
    field: _Field | None = None,
) -> GivenOrder:
    orders = game.data.orders
    field = field if field is not None else _Field(game)
    trace = _Trace()
    morale = ch.morale.value.capitalize()
    # 5.3 step 3: an opponent in the same hex → Melee, no row read.
    if field.opponent_here(ch):
        if ch.trained_medic:  # C2 30.0: a trained medic never enters Melee.
            return _fixed(
                game,
                ch,
                "hide",
                f"{ch.name} ({morale}) shares his hex with an opponent but a trained medic "
                "never melees: Hide (C2 30.0 [house]).",
                "C2 30.0",
            )
        return _fixed(
            game,
            ch,
            "melee",
            f"{ch.name} ({morale}) shares his hex with an opponent: Melee, no card row read "
            "(base-rules §5.3 step 3).",
            "§5.3 step 3, §11",
        )
    if card is None:
        raise ValueError(f"order_for: {ch.name} needs an Enemy Order card (no opponent in his hex)")
    trace.cards.append(card.id)
    in_cover = game.in_cover(ch)
    column = "cover" if in_cover else "open"
    head = (
        f"{ch.name} ({morale}, {'in Cover' if in_cover else 'in the Open'}) {via} {card.id} "
        f"(initiative {card.initiative}{', ignored: ' + why if why else ''})"
    )
    mrow = game.data.checks.morale(ch.morale)
    target: str | None = None
    if mrow.card_string is not None:  # 5.3 step 6: Berserk or Rout
        ds = card.berserk if mrow.card_string is CardString.BERSERK else card.rout
        order_id = mrow.forced_order or ("charge" if mrow.card_string is CardString.BERSERK else "evade")
        row_name = ch.morale.value
        entry_text = f"{mrow.card_string.value} {ds}"
        directions: DirectionString | None = ds
        trace.parts.append(f"{morale} reads the {mrow.card_string.value} string {ds}")
        trace.rule("9.1", "§5.3 step 6")
        if ch.trained_medic and order_id == "charge":
            _convert(trace, order_id, "evade", "C2 30.0 [house]", "a trained medic never charges")
            order_id = "evade"
    else:
        row = CardRow(ch.morale.value)
        row_name = row.value
        trace.rule("9.1", "§5.3 steps 7-9")
        entry = card.entry(row, in_cover=in_cover)
        trace.parts.append(f"{column.capitalize()}/{morale} reads '{entry}'")
        if ch.trained_medic:
            card, entry, medic = _medic_entry(game, ch, card, entry, in_cover, row, trace, redraw)
        else:
            medic = None
        entry_text = str(entry)
        directions = entry.directions
        order_id = orders.by_code(entry.code.value).id
        if medic is not None:
            order_id, directions, target = "evade", medic[0], medic[1].id
        elif not ch.trained_medic:
            gc = _gc_checks(game, field, ch, entry, trace)
            if gc is not None:
                order_id, target = gc
    order_id, directions = _conversions(game, field, ch, order_id, directions, target, trace)
    return _emit(
        game,
        ch,
        order_id,
        trace,
        card=card,
        column=column,
        row=row_name,
        entry=entry_text,
        directions=directions,
        target=target,
        head=head,
    )


def _emit(
    game: GameContext,
    ch: Character,
    order_id: str,
    trace: _Trace,
    *,
    card: EnemyOrderCard | None = None,
    column: str | None = None,
    row: str | None = None,
    entry: str | None = None,
    directions: DirectionString | None = None,
    target: str | None = None,
    head: str = "",
    text: str = "",
    rule: str = "",
) -> GivenOrder:
    order = game.data.orders.get(order_id)
    final = order.name + (f" {directions}" if directions is not None else "") + _target_words(game, target)
    if not text:
        body = "; ".join(trace.parts)
        text = f"{head}: {body} → {final} ({', '.join(trace.rules)})."
    rule = rule or ", ".join(trace.rules)
    source = f"card {card.id}" if card is not None else f"rule {rule}"
    game.emit(
        "enemy_order",
        text,
        rule=rule,
        actor=ch.id,
        data={
            "card": card.id if card is not None else None,
            "initiative": card.initiative if card is not None else None,
            "cards_read": list(trace.cards),
            "column": column,
            "row": row,
            "morale": ch.morale.value,
            "entry": entry,
            "checks": trace.checks,
            "conversions": trace.conversions,
            "order": order_id,
            "directions": str(directions) if directions is not None else None,
            "target": target,
        },
    )
    return GivenOrder(order_id, directions, target, source)


def _fixed(
    game: GameContext, ch: Character, order_id: str, text: str, rule: str, target: str | None = None
) -> GivenOrder:
    """An order given by a rule without reading a card (Melee, Medical Aid, wire Hide): event and order."""
    return _emit(game, ch, order_id, _Trace(), target=target, text=text, rule=rule)


def _target_words(game: GameContext, target: str | None) -> str:
    if target is None:
        return ""
    other = game.state.characters.get(target)
    if other is not None:
        return f" at {other.name} ({other.hex})"
    return f" at hex {target}"


def _gc_checks(
    game: GameContext, field: _Field, ch: Character, entry: EnemyOrderEntry, trace: _Trace
) -> tuple[str, str] | None:
    """5.3 step 8 (9.6): C → TQC → Charge; else (or C failed) G → TQC → Grenade. (order, target)."""
    if not (entry.charge_check or entry.grenade_check):
        return None
    trace.rule("9.6")
    foes = [f for f in field.revealed[ch.side.other] if game.distance(ch.hex, f.hex) <= GC_RANGE]
    if not foes:
        trace.parts.append(f"{entry.flags} check: no Spotted Friendly within {GC_RANGE}")
        trace.checks.append({"check": entry.flags, "result": "no Spotted Friendly within 4"})
        return None
    tried: Character | None = None
    if entry.charge_check:
        chargeable = [f for f in foes if _chargeable(game, field, f)]
        if not chargeable:
            trace.parts.append("C check: no Friendly within 4 can be charged (C2 27.2, §11)")
            trace.checks.append({"check": "C", "result": "no chargeable Friendly"})
            trace.rule("C2 27.2")
        else:
            f = _nearest(game, ch, chargeable, "Charge target (§5.3 step 8)")
            out = _tqc(game, ch, ch.effective_tq, f"C check, Charge at {f.name} (9.6)")
            _record_check(game, trace, "C", ch, f, out, "Charge")
            if out.passed:
                return ("charge", f.id)
            tried = f
    if entry.grenade_check:
        throwable = [f for f in foes if not field.melee(f.hex)]
        if not throwable:
            trace.parts.append("G check: every Friendly within 4 is in a melee hex (C2 23.2)")
            trace.checks.append({"check": "G", "result": "no target outside melee"})
            return None
        f = tried if tried in throwable else _nearest(game, ch, throwable, "Grenade target (§5.3 step 8)")
        out = _tqc(game, ch, ch.effective_tq, f"G check, Grenade at {f.name} (9.6)")
        _record_check(game, trace, "G", ch, f, out, "Grenade")
        if out.passed:
            return ("grenade", str(f.hex))
    return None


def _record_check(
    game: GameContext, trace: _Trace, flag: str, ch: Character, f: Character, out: CheckOutcome, what: str
) -> None:
    rng = game.distance(ch.hex, f.hex)
    verdict = "passed" if out.passed else "failed"
    natural = " (natural 9 always fails)" if out.roll == 9 else ""
    trace.parts.append(
        f"{flag} check: {f.name} at {f.hex}, {rng} hex{'es' if rng != 1 else ''}; "
        f"TQC rolled {out.roll} vs TQ {out.target}: {verdict}{natural}" + (f" → {what}" if out.passed else "")
    )
    trace.checks.append(
        {
            "check": flag,
            "kind": "tqc",
            "target": out.target,
            "roll": out.roll,
            "result": out.result.value,
            "passed": out.passed,
            "friendly": f.id,
            "range": rng,
        }
    )


def _conversions(
    game: GameContext,
    field: _Field,
    ch: Character,
    order_id: str,
    directions: DirectionString | None,
    target: str | None,
    trace: _Trace,
) -> tuple[str, DirectionString | None]:
    """5.3 step 9, base-rules §4 conversions in order: No Ammo (10.10), ground (C2 28.2), wire (C2 27.7)."""
    orders = game.data.orders
    st = game.state
    o = orders.get(order_id)
    if ch.ammo is AmmoState.NO and o.code in FIRE_CODES:
        _convert(trace, order_id, "reload", "10.10", "No Ammo")
        order_id, directions = "reload", None
    if st.ground in SPRINT_TO_EVADE_GROUNDS and order_id == "sprint":
        _convert(trace, order_id, "evade", "C2 28.2", f"ground {st.ground.replace('_', ' ')}: no Sprint")
        order_id = "evade"
    elif st.ground == DEEP_SNOW and order_id in DEEP_SNOW_TO_SNEAK:
        _convert(trace, order_id, "sneak", "C2 28.2", "Deep Snow: no Sprint, Evade or Run & Gun")
        order_id = "sneak"
    o = orders.get(order_id)
    if order_id != "sneak" and _must_move(o) and _wire_binds(game, field, ch):
        if directions is None and target is not None:
            directions = _string_toward(game, ch.hex, _target_hex(game, target))
        _convert(trace, order_id, "sneak", "C2 27.7", "in Barbed Wire only Sneak leaves the hex")
        order_id = "sneak"
    return order_id, directions


def _convert(trace: _Trace, frm: str, to: str, rule: str, why: str) -> None:
    trace.parts.append(f"{why}: {frm.replace('_', ' ')} becomes {to.replace('_', ' ')} ({rule})")
    trace.conversions.append({"from": frm, "to": to, "rule": rule, "why": why})
    trace.rule(rule)


def _must_move(o: Order) -> bool:
    return any(s.must_move for s in o.steps)


# ---------------------------------------------------------------------------
# Enemy trained medics (C2 30.2)


def _medic_entry(
    game: GameContext,
    ch: Character,
    card: EnemyOrderCard,
    entry: EnemyOrderEntry,
    in_cover: bool,
    row: CardRow,
    trace: _Trace,
    redraw: Callable[[], EnemyOrderCard] | None,
) -> tuple[EnemyOrderCard, EnemyOrderEntry, tuple[DirectionString, Character] | None]:
    """C2 30.2: G/C act as M checks (no TQC); a fire order draws again. (card, entry, medic move)."""
    trace.rule("C2 30.2")
    for _ in range(MEDIC_REDRAW_LIMIT + 1):
        if entry.grenade_check or entry.charge_check:
            move = _medic_move(game, ch)
            if move is not None:
                ds, wounded, path = move
                reach = "reaches him" if path and path[-1] == wounded.hex else "gets closest"
                trace.parts.append(
                    f"M check ({entry.flags} read as M, no TQC): wounded {wounded.name} at {wounded.hex}; "
                    f"Evade {ds} {reach}"
                )
                trace.checks.append(
                    {
                        "check": "M",
                        "flags": entry.flags,
                        "wounded": wounded.id,
                        "path": [str(h) for h in path],
                    }
                )
                return card, entry, (ds, wounded)
            trace.parts.append(f"M check ({entry.flags}): no wounded comrade within {MEDIC_RANGE}")
            trace.checks.append({"check": "M", "flags": entry.flags, "result": "no wounded within 4"})
        if entry.code.value not in FIRE_CODES:
            return card, entry, None
        draw = redraw if redraw is not None else _loose_redraw(game, ch)
        card = draw()
        trace.cards.append(card.id)
        entry = card.entry(row, in_cover=in_cover)
        trace.parts.append(f"a trained medic takes no fire order: draws {card.id}, which reads '{entry}'")
    trace.parts.append(f"still a fire order after {MEDIC_REDRAW_LIMIT} draws: Hide [house]")
    return card, EnemyOrderEntry.parse("HI"), None


def _medic_move(game: GameContext, ch: Character) -> tuple[DirectionString, Character, list[Hex]] | None:
    """The wounded comrade within 4 (closest, worst wound, random) and the Evade string toward him."""
    wounded = [
        w
        for w in game.state.active(ch.side)
        if w is not ch and w.wounds and 0 < game.distance(ch.hex, w.hex) <= MEDIC_RANGE
    ]
    if not wounded:
        return None
    w = _pick(
        game,
        wounded,
        key=lambda x: (game.distance(ch.hex, x.hex), -_wound_weight(x)),
        purpose=f"{ch.name}: which wounded comrade (C2 30.2)",
    )
    evade = game.data.orders.get("evade")
    best: tuple[Any, ...] | None = None
    for i, ds in enumerate(_DIRECTION_STRINGS):
        path = _path(game, ch, evade, ds, goal=w.hex)
        end = path[-1] if path else ch.hex
        reached = end == w.hex
        score = (
            0 if reached else 1,
            len(path) if reached else game.distance(end, w.hex),
            _protection(game, end, evade.fire_group or 0),
            i,
        )
        if best is None or score < best[0]:
            best = (score, ds, path)
    assert best is not None
    return best[1], w, best[2]


def _wound_weight(ch: Character) -> int:
    """Worst wound first: a Bad Wound outweighs any number of Light ones (C2 30.2)."""
    return 100 * ch.bad_wounds + ch.light_wounds


def _medic_prepass(game: GameContext) -> None:
    """C2 30.2: a trained medic starting the phase with a wounded comrade in his hex takes Medical Aid."""
    st = game.state
    for medic in st.active(Side.ENEMY):
        if not medic.trained_medic or not medic.alert or medic.order is not None:
            continue
        if medic.acted.get(UNPREPARED_KEY) or _opponent_here(game, medic):
            continue
        here = [
            w
            for w in st.at(medic.hex)
            if w is not medic and w.side is medic.side and w.wounds and w.is_active
        ]
        if not here:
            continue
        w = _pick(
            game, here, key=lambda x: -_wound_weight(x), purpose=f"{medic.name}: whom to treat (C2 30.2)"
        )
        _give(
            game,
            medic,
            _fixed(
                game,
                medic,
                "medical_aid",
                f"{medic.name}, a trained medic, starts the phase with wounded {w.name} in his hex: "
                "Medical Aid, no card (C2 30.2).",
                "C2 30.2",
                w.id,
            ),
        )
        if w.order is None and w.alert and not w.acted.get(UNPREPARED_KEY):
            below = w.morale.rank > MoraleState.NORMAL.rank
            oid = "rally" if below else "hide"
            why = "below Normal" if below else "Normal or better"
            _give(
                game,
                w,
                _fixed(
                    game,
                    w,
                    oid,
                    f"{w.name} is treated by {medic.name}; his morale is {w.morale.value} ({why}): "
                    f"{oid.capitalize()}, no card (C2 30.2).",
                    "C2 30.2",
                ),
            )


# ---------------------------------------------------------------------------
# Barbed wire (C2 27.7)


def _in_wire(game: GameContext, h: Hex) -> bool:
    m = game.board.map
    return m.terrain[h] == WIRE or WIRE in m.overlays.get(h, ())


def _wire_binds(game: GameContext, field: _Field, ch: Character) -> bool:
    """Whether C2 27.7 binds ``ch``: in a wire hex with no same-side man on Hide there."""
    if ch.hex is None or not _in_wire(game, ch.hex):
        return False
    return not any(
        o is not ch and o.side is ch.side and o.order is not None and o.order.order == "hide"
        for o in field.here(ch.hex)
    )


def _wire_prepass(game: GameContext) -> None:
    """C2 27.7: two or more enemies in a wire hex: the lowest TQ (random if tied) takes Hide first."""
    st = game.state
    seen: dict[Hex, None] = {}
    for ch in st.active(Side.ENEMY):
        if ch.hex in seen or not _in_wire(game, ch.hex):
            continue
        seen[ch.hex] = None
        here = [c for c in st.at(ch.hex) if c.side is Side.ENEMY and c.is_active]
        if len(here) < 2 or _opponent_here(game, ch):
            continue
        if any(c.order is not None and c.order.order == "hide" for c in here):
            continue
        free = [c for c in here if c.order is None and c.alert and not c.acted.get(UNPREPARED_KEY)]
        if not free:
            continue
        low = _pick(
            game, free, key=lambda c: c.effective_tq, purpose=f"lowest TQ in the wire at {ch.hex} (C2 27.7)"
        )
        _give(
            game,
            low,
            _fixed(
                game,
                low,
                "hide",
                f"{low.name} (TQ {low.effective_tq}) has the lowest TQ of the {len(here)} enemies in the "
                f"Barbed Wire at {low.hex}: Hide, before the others' orders (C2 27.7).",
                "C2 27.7",
            ),
        )


# ---------------------------------------------------------------------------
# Target choice for Enemy fire (13.0; C2 23.2, 30.1)


@attrs.frozen
class FireOption:
    """One target an Enemy could fire at, with the weapon and the modified WS it would get."""

    target: Character
    weapon: str
    range: int
    modified_ws: int
    parts: dict[str, int]
    """The modified WS term by term: ``ws``, ``range``, ``chart``, ``smoke``, ``order``,
    ``wounds``, ``morale``, ``sniper``."""


def fire_options(game: GameContext, ch: Character, weapon_id: str | None = None) -> list[FireOption]:
    """Every Spotted, targetable Friendly ``ch`` could fire at, with its modified WS (base-rules §10).

    Targetable: active (not incapacitated, C2 23.3), Spotted, not in a melee hex
    (C2 23.2), in LOS (:meth:`Game.sight`), in range and not in an NA band of the
    weapon. With ``weapon_id`` None each target is scored with ``ch``'s best
    weapon for it (:func:`choose_enemy_weapon`). Modified WS = WS + range band +
    fire chart cell (the most protective of the target hex's terrain, overlays
    and the hexside the line enters by, in the column of the target's order
    fire group; not for Suppressive Fire) + smoke on the line + the firer's
    order, wounds and morale (+ Sniper on Impulse 4). Other modifiers (cards,
    night, weather, wire...) are left to the combat code: they do not change
    the ranking. Dummies never fire (empty list). Occupants of vehicles are
    targets only when :func:`solo.rules.vehicles.targets.is_individual_target` allows
    (C2 31.10.31).
    """
    if ch.dummy or ch.hex is None or not ch.is_active:
        return []
    weapons = [game.data.weapons.get(weapon_id)] if weapon_id is not None else _fire_weapons(game, ch)
    if not weapons:
        return []
    melee = _melee_hexes(game)
    out: list[FireOption] = []
    order = game.order_def(ch)
    for f in game.opponents(ch):
        if not f.revealed or f.hex in melee:
            continue
        if f.vehicle is not None:  # C2 31.10.31: riders only as exposed individual targets
            from solo.rules.vehicles import targets as vehicle_targets

            if not vehicle_targets.is_individual_target(game, f, ch, order):
                continue
        rng = game.distance(ch.hex, f.hex)
        usable = [w for w in weapons if w.band_modifier(rng) is not None]
        if not usable:
            continue
        sight = game.sight(ch, f.hex, target=f)
        if not sight.clear:
            continue
        best: FireOption | None = None
        for w in usable:
            opt = _fire_option(game, ch, f, w, rng, sight.modifier)
            if best is None or opt.modified_ws > best.modified_ws:
                best = opt
        assert best is not None
        out.append(best)
    return out


def choose_fire_target(game: GameContext, ch: Character, weapon_id: str | None = None) -> Character | None:
    """The Friendly Enemy ``ch`` fires at (13.0; C2 23.2, 30.1), or None if there is none.

    Among :func:`fire_options`: the best modified WS (easiest to hit), then the
    nearest, then a random pick (logged through ``game.dice.choice``). A Friendly
    trained medic is a target only when there is no other and ``ch`` fails a
    TQC at TQ+2 (a Berserk man at his plain TQ; C2 30.1), unless an Enemy
    trained medic has been killed or Badly wounded (``state.flags``
    ``"enemy_trained_medic_down"``, C2 30.2). ``weapon_id`` None scores each
    target with ``ch``'s best weapon for it; pair with :func:`choose_enemy_weapon`.
    Emits a ``fire_target`` event naming the winner and why.
    """
    pick = choose_fire(game, ch, weapon_id)
    return pick.target if pick is not None else None


def choose_fire(game: GameContext, ch: Character, weapon_id: str | None = None) -> FireOption | None:
    """As :func:`choose_fire_target`, returning the whole :class:`FireOption` (target, weapon, WS)."""
    options = fire_options(game, ch, weapon_id)
    if not options:
        return None
    free_medics = bool(game.state.flags.get(ENEMY_MEDIC_DOWN))
    pool = [o for o in options if free_medics or not o.target.trained_medic]
    rules = "13.0, C2 23.2"
    if not pool:  # C2 30.1: only Friendly trained medics in sight
        berserk = ch.morale is MoraleState.BERSERK
        tq = ch.effective_tq + (0 if berserk else MEDIC_TARGET_TQ_BONUS)
        roll = game.dice.d10(f"TQC: {ch.name} holds fire on a trained medic? (C2 30.1)")
        out = game.data.checks.resolve(CheckKind.TQC, roll.total, tq)
        verdict = "passed: he holds his fire" if out.passed else "failed: he fires on the medic"
        game.emit(
            "fire_target",
            f"{ch.name} sees only a trained medic; TQC rolled {out.roll} vs "
            f"{'TQ' if berserk else 'TQ+2'} {tq}: {verdict} (C2 30.1).",
            rule="C2 30.1",
            actor=ch.id,
            data={
                "check": {"kind": "tqc", "target": tq, "roll": out.roll, "passed": out.passed},
                "target": None if out.passed else [o.target.id for o in options],
            },
        )
        if out.passed:
            return None
        pool = options
        rules += ", C2 30.1"
    best_ws = max(o.modified_ws for o in pool)
    easiest = [o for o in pool if o.modified_ws == best_ws]
    nearest = min(o.range for o in easiest)
    tied = [o for o in easiest if o.range == nearest]
    chosen = tied[0]
    how = "easiest to hit"
    if len(easiest) > 1:
        how += ", then nearest"
    if len(tied) > 1:
        pick = game.dice.choice(
            [o.target.name for o in tied], f"{ch.name}: fire target among equals (C2 23.2)"
        )
        chosen = tied[pick.index]
        how += ", then a random pick"
    w = game.data.weapons.get(chosen.weapon)
    terms = "".join(f" {k} {v:+d}" for k, v in chosen.parts.items() if k != "ws" and v)
    game.emit(
        "fire_target",
        f"{ch.name} picks {chosen.target.name} at {chosen.target.hex} ({chosen.range} hexes) with the "
        f"{w.name}: modified WS {chosen.modified_ws} (WS {chosen.parts['ws']}{terms}); "
        f"{how} of {len(pool)} target{'s' if len(pool) != 1 else ''} ({rules}).",
        rule=rules,
        actor=ch.id,
        data={
            "target": chosen.target.id,
            "weapon": chosen.weapon,
            "modified_ws": chosen.modified_ws,
            "range": chosen.range,
            "parts": dict(chosen.parts),
            "how": how,
            "options": [(o.target.id, o.weapon, o.modified_ws, o.range) for o in pool],
        },
    )
    return chosen


def choose_enemy_weapon(game: GameContext, ch: Character, target: Character | None = None) -> str | None:
    """The weapon Enemy ``ch`` fires with: best modified WS, ties to the first listed [house].

    With a ``target``: the best weapon against him. Without: the weapon of the
    best (modified WS, then nearest) of :func:`fire_options` over every target,
    so that :func:`choose_fire_target` can then pick the target for it (no dice,
    no event). Only weapons that can fire at the range (not NA, within max
    range); never thrown weapons, the knife, light AT or guns (see
    ``_NOT_FIRED_BY_ENEMY``); on No Ammo only pistols and weapons without
    ammunition (10.10). Returns the weapon id, or None if none can fire
    (base-rules §10 "Enemy weapon").
    """
    if ch.dummy or ch.hex is None:
        return None
    if target is None:
        options = fire_options(game, ch)
        if not options:
            return None
        order = {cw.weapon: i for i, cw in enumerate(ch.weapons)}
        best_opt = min(options, key=lambda o: (-o.modified_ws, o.range, order.get(o.weapon, 99)))
        return best_opt.weapon
    if target.hex is None:
        return None
    rng = game.distance(ch.hex, target.hex)
    sight = game.sight(ch, target.hex, target=target)
    best: FireOption | None = None
    for w in _fire_weapons(game, ch):
        if w.band_modifier(rng) is None:
            continue
        opt = _fire_option(game, ch, target, w, rng, sight.modifier)
        if best is None or opt.modified_ws > best.modified_ws:
            best = opt
    return best.weapon if best is not None else None


def _fire_weapons(game: GameContext, ch: Character) -> list[Weapon]:
    out = []
    for cw in ch.weapons:
        w = game.data.weapons.get(cw.weapon)
        if w.kind in _NOT_FIRED_BY_ENEMY or w.rof is None:
            continue
        if ch.ammo is AmmoState.NO and not (w.has_flag(WeaponFlag.PISTOL) or w.has_flag(WeaponFlag.NO_AMMO)):
            continue
        out.append(w)
    return out


def _fire_option(
    game: GameContext, ch: Character, target: Character, w: Weapon, rng: int, smoke: int
) -> FireOption:
    ws = ch.effective_tq if w.ws_from_tq else next((c.ws for c in ch.weapons if c.weapon == w.id), 0)
    band = w.band_modifier(rng) or 0
    order = game.order_def(ch)
    chart = 0
    if order is None or not order.has_flag(OrderFlag.IGNORES_FIRE_CHART):
        t_order = game.order_def(target) or game.data.orders.get("hide")
        chart = _fire_chart(game, ch.hex, target.hex, t_order.fire_group or 0)
    parts = {
        "ws": ws,
        "range": band,
        "chart": chart,
        "smoke": smoke,
        "order": (order.ws_modifier or 0) if order is not None else 0,
        "wounds": ch.wound_penalty,
        "morale": game.data.checks.morale(ch.morale).fire_ws,
        "sniper": SNIPER_BONUS if ch.acted.get(SNIPER_KEY) and game.state.flow.impulse == 4 else 0,
    }
    return FireOption(target, w.id, rng, sum(parts.values()), parts)


def _fire_chart(game: GameContext, frm: Hex, to: Hex, group: int) -> int:
    """The most protective fire chart cell of the target hex (terrain, overlays, entry hexside; §9 5, §10)."""
    charts = game.data.charts
    board = game.board
    rows = [board.terrain_of(to).chart_row, *(o.chart_row for o in board.overlays_of(to))]
    if frm != to:
        steps = line(frm, to, board.map.stagger)
        if len(steps) >= 2:
            for h in steps[-2]:
                feature = board.hexside_feature(h, to)
                if feature is not None:
                    rows.append(board.terrain_table[feature].chart_row)
    return min(charts.fire_cell(r, group).modifier for r in rows)


def _protection(game: GameContext, h: Hex, group: int) -> int:
    """The fire chart cell of hex ``h`` for group ``group`` (lower is better for the man there)."""
    board = game.board
    rows = [board.terrain_of(h).chart_row, *(o.chart_row for o in board.overlays_of(h))]
    return min(game.data.charts.fire_cell(r, group).modifier for r in rows)


# ---------------------------------------------------------------------------
# Sniper (C2 24.1) and Duck Back on entering terrain (9.4)


def sniper_aims(game: GameContext, ch: Character) -> bool:
    """C2 24.1: does an Enemy Sniper hold his Impulse 2 shot to fire at +2 on Impulse 4?

    Called at the start of his activation on Impulse 2. With the ``sniper``
    skill, an Aimed Fire order, and the nearest Spotted Friendly 3 or more hexes
    away, he rolls a TQC (effective TQ); on a pass he does not fire this
    Impulse and ``ch.acted["sniper_aim"]`` gives +2 WS to his Impulse 4 fire
    (counted by :func:`fire_options`). Returns True when he aims.
    """
    if game.state.flow.impulse != 2 or not ch.has_skill("sniper") or ch.hex is None:
        return False
    if ch.order is None or ch.order.order != "aimed_fire":
        return False
    spotted = [f for f in game.opponents(ch) if f.revealed]
    if not spotted:
        return False
    nearest = min(game.distance(ch.hex, f.hex) for f in spotted)
    if nearest < SNIPER_RANGE:
        return False
    out = _tqc(game, ch, ch.effective_tq, "Sniper: hold the Impulse 2 shot (C2 24.1)")
    if out.passed:
        ch.acted[SNIPER_KEY] = True
    game.emit(
        "sniper",
        f"{ch.name} (Sniper, Aimed Fire; nearest Spotted Friendly {nearest} hexes): TQC rolled {out.roll} "
        f"vs TQ {out.target}: "
        + ("passed: he holds his fire for +2 WS on Impulse 4" if out.passed else "failed: he fires as usual")
        + " (C2 24.1).",
        rule="C2 24.1",
        actor=ch.id,
        data={"roll": out.roll, "target": out.target, "passed": out.passed, "nearest": nearest},
    )
    return out.passed


def duck_back_on_entering(game: GameContext, ch: Character) -> bool:
    """9.4 (base-rules §5.7): an Enemy who just entered a hex that is not Open ground may Duck Back.

    With LOS to a Spotted Friendly he rolls a TQC on his **printed** TQ; a pass
    turns his order into Duck Back (the caller stops his move). Exempt: Berserk
    men, and the orders Run & Gun, Grenade, Rifle Grenade, Smoke Grenade and
    Charge. Open ground: the terrain and every overlay read the Open chart row
    (barbed wire on open ground counts as Open). Emits a ``duck_back`` event
    when a TQC is rolled. Returns True when the order became Duck Back.
    """
    if ch.side is not Side.ENEMY or ch.hex is None or not ch.is_active or ch.order is None:
        return False
    if ch.morale is MoraleState.BERSERK or ch.order.order in DUCK_BACK_EXEMPT:
        return False
    board = game.board
    if board.terrain_of(ch.hex).chart_row == "open" and all(
        o.chart_row == "open" for o in board.overlays_of(ch.hex)
    ):
        return False
    seen = next((f for f in game.opponents(ch) if f.revealed and game.sees(ch, f)), None)
    if seen is None:
        return False
    out = _tqc(game, ch, ch.tq, f"Duck Back on entering {ch.hex} (9.4)")
    terrain = board.terrain_of(ch.hex).name
    was = game.data.orders.get(ch.order.order).name
    game.emit(
        "duck_back",
        f"{ch.name} enters {terrain} at {ch.hex} in sight of {seen.name}: TQC rolled {out.roll} vs printed "
        f"TQ {ch.tq}: "
        + (f"passed: {was} becomes Duck Back" if out.passed else f"failed: he carries on with {was}")
        + " (9.4).",
        rule="9.4, §5.7",
        actor=ch.id,
        data={
            "roll": out.roll,
            "target": ch.tq,
            "passed": out.passed,
            "hex": str(ch.hex),
            "seen": seen.id,
            "was": ch.order.order,
        },
    )
    if out.passed:
        game.set_order(ch, "duck_back", source="Duck Back on entering terrain (9.4)")
    return out.passed


# ---------------------------------------------------------------------------
# Cards


def _large_battle(game: GameContext) -> bool:
    return bool(getattr(game.scenario, "large_battle", False))


def _draw_for_team(game: GameContext, team: Team, why: str) -> EnemyOrderCard:
    """Draw a card in the Enemy phase for ``team``; the first sets its initiative (9.1)."""
    st = game.state
    draw = game.enemy_deck.draw(game.dice, f"Enemy Order card, team {team.name}: {why}")
    card = game.data.enemy_deck.card(draw.card)
    if team.first_card is None:
        team.first_card = card.id
        team.initiative = card.initiative
        st.cards.enemy_this_turn[f"team:{team.id}"] = card.id
        game.emit(
            "initiative",
            f"{team.name}: the first card drawn, {card.id}, sets the team's initiative {card.initiative} "
            "(9.1" + (", one card for the team: Large Battle 9.2" if _large_battle(game) else "") + ").",
            rule="9.1" + (", 9.2" if _large_battle(game) else ""),
            actor=team.id,
            data={"team": team.id, "card": card.id, "initiative": card.initiative, "why": why},
        )
    return card


def _phase_redraw(game: GameContext, ch: Character) -> Callable[[], EnemyOrderCard]:
    """Extra draws of the phase (trained medics): kept with the turn's cards until Step 5 e)."""
    count = [0]

    def draw() -> EnemyOrderCard:
        count[0] += 1
        d = game.enemy_deck.draw(game.dice, f"Enemy Order card: {ch.name} draws again (C2 30.2)")
        game.state.cards.enemy_this_turn[f"{ch.id}#{count[0] + 1}"] = d.card
        return game.data.enemy_deck.card(d.card)

    return draw


def _loose_redraw(game: GameContext, ch: Character) -> Callable[[], EnemyOrderCard]:
    """Extra draws outside the phase: discarded at once (a mid-turn card, §5.5)."""

    def draw() -> EnemyOrderCard:
        d = game.enemy_deck.draw(game.dice, f"Enemy Order card: {ch.name} draws again (C2 30.2)")
        game.enemy_deck.discard(d.card)
        return game.data.enemy_deck.card(d.card)

    return draw


def _mid_turn_order(game: GameContext, ch: Character, why: str) -> GivenOrder | None:
    """An order drawn outside the phase (§5.6): initiative ignored, the card discarded once used (§5.5)."""
    if _opponent_here(game, ch):
        return _give(game, ch, order_for(game, ch, None))
    team = game.state.teams[ch.team]
    if _large_battle(game) and team.first_card is not None:
        card = game.data.enemy_deck.card(team.first_card)
        return _give(game, ch, _lookup(game, ch, card, via="reads the team's card", redraw=None, why=why))
    d = game.enemy_deck.draw(game.dice, f"Enemy Order card: {ch.name}, {why}; initiative ignored")
    card = game.data.enemy_deck.card(d.card)
    try:
        order = _lookup(game, ch, card, via="draws", redraw=None, why=why)
    finally:
        game.enemy_deck.discard(card.id)
    return _give(game, ch, order)


def _give(game: GameContext, ch: Character, order: GivenOrder | None) -> GivenOrder | None:
    if order is not None:
        ch.order = order
    return order


# ---------------------------------------------------------------------------
# Small helpers


class _Field:
    """Who stands where, read once: active men on the map by hex, and the Spotted/Known by side.

    Nobody moves during the Enemy phase, so one snapshot serves the whole phase
    (orders are read live from the characters).
    """

    __slots__ = ("by_hex", "revealed")

    def __init__(self, game: GameContext) -> None:
        self.by_hex: dict[Hex, list[Character]] = {}
        self.revealed: dict[Side, list[Character]] = {Side.FRIENDLY: [], Side.ENEMY: []}
        for c in game.state.characters.values():
            if c.hex is None or not c.is_active:
                continue
            self.by_hex.setdefault(c.hex, []).append(c)
            if c.revealed:
                self.revealed[c.side].append(c)

    def here(self, h: Hex | None) -> list[Character]:
        """Active men on ``h``, roster order."""
        return self.by_hex.get(h, []) if h is not None else []

    def opponent_here(self, ch: Character) -> bool:
        """Whether an active opponent shares ``ch``'s hex (§5.3 step 3)."""
        return any(o.side is not ch.side for o in self.here(ch.hex))

    def melee(self, h: Hex | None) -> bool:
        """A hex holding active men of both sides (C2 23.2: no fire or grenade into it)."""
        men = self.here(h)
        return bool(men) and any(c.side is not men[0].side for c in men)


def _can_take_order(ch: Character) -> bool:
    """5.3 step 1: active, on the map and without an order."""
    return ch.is_active and ch.hex is not None and ch.order is None


def _opponent_here(game: GameContext, ch: Character) -> bool:
    h = ch.hex
    return h is not None and any(
        o.hex == h and o.side is not ch.side and o.is_active for o in game.state.at(h)
    )


def _melee_hexes(game: GameContext) -> dict[Hex, None]:
    by_side: dict[Side, dict[Hex, None]] = {Side.FRIENDLY: {}, Side.ENEMY: {}}
    for c in game.state.active():
        by_side[c.side][c.hex] = None
    return {h: None for h in by_side[Side.FRIENDLY] if h in by_side[Side.ENEMY]}


def _chargeable(game: GameContext, field: _Field, f: Character) -> bool:
    """§11, C2 27.2, 23.3: not in a Fortified Building, not one of 2+ defenders, not incapacitated."""
    h = f.hex
    m = game.board.map
    if m.terrain[h] == FORTIFIED or FORTIFIED in m.overlays.get(h, ()):
        return False
    return sum(1 for c in field.here(h) if c.side is f.side) < 2


def _nearest(game: GameContext, ch: Character, options: list[Character], purpose: str) -> Character:
    return _pick(game, options, key=lambda f: game.distance(ch.hex, f.hex), purpose=f"{ch.name}: {purpose}")


def _pick(
    game: GameContext, options: list[Character], *, key: Callable[[Character], Any], purpose: str
) -> Character:
    """The option with the lowest ``key``; ties by a logged random pick (C2 23.2 "random selection")."""
    best = min(key(o) for o in options)
    tied = [o for o in options if key(o) == best]
    if len(tied) == 1:
        return tied[0]
    return tied[game.dice.choice([o.name for o in tied], purpose).index]


def _tqc(game: GameContext, ch: Character, target: int, why: str) -> CheckOutcome:
    """A TQ Check: d10 against ``target``; a natural 9 always fails (base-rules §7; C2 23.1)."""
    roll = game.dice.d10(f"TQC: {ch.name}, {why}")
    return game.data.checks.resolve(CheckKind.TQC, roll.total, target)


def _target_hex(game: GameContext, target: str) -> Hex:
    other = game.state.characters.get(target)
    return other.hex if other is not None and other.hex is not None else Hex.parse(target)


def _counter_rotation(game: GameContext, h: Hex) -> int:
    """The rotation of the Direction Counter nearest ``h`` (base-rules §6); 0 without one.

    [house] For planning only (medic paths, wire Sneak): ties go to the first listed counter;
    the movement code breaks real ties with the dice (C2 31.11.2).
    """
    counters = getattr(game.scenario, "direction_counters", ())
    best: tuple[int, int] | None = None
    for c in counters:
        d = game.distance(h, Hex.parse(c.hex))
        if best is None or d < best[0]:
            best = (d, c.rotation)
    return best[1] if best is not None else 0


def _string_toward(game: GameContext, frm: Hex | None, to: Hex) -> DirectionString | None:
    """The card direction string pointing from ``frm`` toward ``to`` through the Direction Counter."""
    if frm is None or frm == to:
        return None
    rot = _counter_rotation(game, frm)
    wedge = wedge_directions(frm, to, game.board.map.stagger)
    return DirectionString(tuple(rotate(d, -rot) for d in wedge))


def _enterable(game: GameContext, ch: Character, h: Hex) -> bool:
    """base-rules §6 step 5 (simplified for planning): passable, not burning, no opponent in it."""
    if not game.board.terrain_of(h).character_passable or h in game.state.markers.fire:
        return False
    return not any(o.hex == h for o in game.opponents(ch))


def _path(game: GameContext, ch: Character, order: Order, ds: DirectionString, *, goal: Hex) -> list[Hex]:
    """The hexes ``order`` with ``ds`` would take ``ch`` through this turn (§6 house slots), to ``goal``."""
    board = game.board
    h = ch.hex
    a, b = ds.slots
    path: list[Hex] = []
    for imp in (1, 2, 3, 4):
        if order.track(imp) in (TrackStep.NONE, TrackStep.FIRE, TrackStep.MELEE):
            continue
        for slot in order.slots(imp):
            first, second = (a, b) if slot is Slot.A else (b, a)
            rot = _counter_rotation(game, h)
            nxt = None
            for d in dict.fromkeys((first, second)):
                n = board.neighbour_hex(h, rotate(d, rot))
                if n is not None and _enterable(game, ch, n):
                    nxt = n
                    break
            if nxt is None:
                break
            h = nxt
            path.append(h)
            if h == goal:
                return path
    return path


__all__ = [
    "DUCK_BACK_EXEMPT",
    "ENEMY_MEDIC_DOWN",
    "GC_RANGE",
    "MEDIC_RANGE",
    "FireOption",
    "alert",
    "assign_on_activation",
    "choose_enemy_weapon",
    "choose_fire",
    "choose_fire_target",
    "duck_back_on_entering",
    "enemy_card_and_order_phase",
    "fire_options",
    "order_for",
    "place_reinforcements",
    "return_enemy_cards",
    "sniper_aims",
    "unprepared_activation",
]
