"""The order one Enemy reads on his card: Cover/Open × Morale State (base-rules §5.3; rule 9.1).

Every function takes the :class:`~solo.engine.game.Game` first. :func:`order_for` emits one
``enemy_order`` event that explains itself (DESIGN.md "Every Enemy decision explains itself"):
the card and its initiative, Cover/Open and the morale row read, the checks rolled with target
and face, the conversions and their rules, and the final order. The steps (§5.3):

- an opponent in his hex: Melee, no row read (step 3; a trained medic Hides, C2 30.0);
- Berserk: Charge along the card's berserk string; Rout: Evade along its rout string (step 6);
- else the row of his Morale State in the Cover or the Open table (step 7);
- the C, then the G check at a Spotted Friendly within 4 hexes (step 8, rule 9.6; C2 27.2, 23.2);
- the conversions: No Ammo → Reload (10.10), Mud/Snow/Deep Snow (C2 28.2), Barbed Wire → Sneak
  (C2 27.7) (step 9);
- an Enemy trained medic reads G/C as an M check toward a wounded comrade, and draws again on a
  fire order (C2 30.2).

Also what every Enemy order decision reads: ``_Field`` (who stands where, read once a phase),
``_pick`` (ties broken by a logged random pick, C2 23.2), ``_tqc`` (a TQ Check, base-rules §7;
C2 23.1) and ``_give`` (the order given).

May import: :mod:`~solo.enemy.directions`, :mod:`~solo.enemy.order_cards`, :mod:`solo.rules`,
:mod:`solo.data`, :mod:`solo.core`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.hexes import Hex
from solo.data.cards import CardRow, DirectionString, EnemyOrderCard, EnemyOrderEntry
from solo.data.orders import Order
from solo.data.tables import CardString, CheckKind, CheckOutcome
from solo.enemy.directions import _DIRECTION_STRINGS, _path, _string_toward, _target_hex
from solo.enemy.order_cards import _loose_redraw
from solo.rules.state import AmmoState, Character, GivenOrder, Side, Status

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
FIRE_CODES = ("AF", "RF", "SF", "RG")
"""Card codes that are fire orders: No Ammo turns them into Reload (10.10); a trained medic
draws again (C2 30.2)."""
SPRINT_TO_EVADE_GROUNDS = ("mud", "snow")
"""Ground conditions in which an Enemy Sprint becomes Evade, same directions (C2 28.2)."""
DEEP_SNOW = "deep_snow"
"""Deep Snow: Sprint, Evade and Run & Gun become Sneak, same directions (C2 28.2)."""
DEEP_SNOW_TO_SNEAK = ("sprint", "evade", "run_and_gun")
WIRE = "barbed_wire"
"""Terrain id of Barbed Wire (C2 27.7)."""
FORTIFIED = "fortified_building"
"""Terrain id of a Fortified Building: never the target of a Charge (C2 27.2)."""


# ---------------------------------------------------------------------------
# The lookup for one enemy (base-rules §5.3)


@attrs.define
class _Trace:
    """What the lookup did, for the explaining event.

    ``rules`` is always kept (the event's rule and a card-less order's ``source`` read it); the
    texts (``parts``) only when ``say`` (the game narrates), the data (``checks``,
    ``conversions``, ``cards``) only when ``keep`` (someone keeps or hears the ``enemy_order``
    event; see :func:`_hearing`).
    """

    say: bool = True
    """Build the event's words: the game narrates."""
    keep: bool = True
    """Build the event's data: the game keeps its events or a listener hears ``enemy_order``."""
    parts: list[str] = attrs.field(factory=list)
    checks: list[dict[str, Any]] = attrs.field(factory=list)
    conversions: list[dict[str, Any]] = attrs.field(factory=list)
    rules: list[str] = attrs.field(factory=list)
    cards: list[str] = attrs.field(factory=list)

    def rule(self, *rules: str) -> None:
        for r in rules:
            if r not in self.rules:
                self.rules.append(r)


def _hearing(game: GameContext) -> tuple[bool, bool]:
    """(say, keep) for a :class:`_Trace`: whether the ``enemy_order`` event's words and its data
    will be read (the same test as :meth:`~solo.rules.context.GameContext.emit`)."""
    if game.narrates:
        return True, True
    for listener in game.listeners:
        kinds = getattr(listener, "kinds", None)
        if kinds is None or "enemy_order" in kinds:
            return False, True
    return False, False


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
    # 5.3 step 3: an opponent in the same hex → Melee, no row read.
    if field.opponent_here(ch):
        morale = ch.morale.value.capitalize()
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
    say, keep = _hearing(game)
    trace = _Trace(say, keep)
    if keep:
        trace.cards.append(card.id)
    in_cover = game.in_cover(ch)
    column = "cover" if in_cover else "open"
    if say:
        morale = ch.morale.value.capitalize()
        head = (
            f"{ch.name} ({morale}, {'in Cover' if in_cover else 'in the Open'}) {via} {card.id} "
            f"(initiative {card.initiative}{', ignored: ' + why if why else ''})"
        )
    else:
        head = ""
    mrow = game.data.checks.morale(ch.morale)
    target: str | None = None
    if mrow.card_string is not None:  # 5.3 step 6: Berserk or Rout
        ds = card.berserk if mrow.card_string is CardString.BERSERK else card.rout
        order_id = mrow.forced_order or ("charge" if mrow.card_string is CardString.BERSERK else "evade")
        row_name = ch.morale.value
        entry_text: str | EnemyOrderEntry = f"{mrow.card_string.value} {ds}"
        directions: DirectionString | None = ds
        if say:
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
        if say:
            trace.parts.append(f"{column.capitalize()}/{morale} reads '{entry}'")
        if ch.trained_medic:
            card, entry, medic = _medic_entry(game, ch, card, entry, in_cover, row, trace, redraw)
        else:
            medic = None
        entry_text = entry  # str() only for the event's data
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
    entry: str | EnemyOrderEntry | None = None,
    directions: DirectionString | None = None,
    target: str | None = None,
    head: str = "",
    text: str = "",
    rule: str = "",
) -> GivenOrder:
    """The ``enemy_order`` event and the order. With ``trace.keep`` False (no one keeps or hears
    the event) the event only takes its number and no text, rule list or data is built."""
    if card is not None:
        source = f"card {card.id}"
        if not trace.keep:
            game.emit("enemy_order", "", actor=ch.id)
            return _given(game, order_id, directions, target, source)
        rule = rule or ", ".join(trace.rules)
    else:
        rule = rule or ", ".join(trace.rules)
        source = f"rule {rule}"
        if not trace.keep:
            game.emit("enemy_order", "", actor=ch.id)
            return _given(game, order_id, directions, target, source)
    _order_event(game, ch, order_id, trace, card, column, row, entry, directions, target, head, text, rule)
    return _given(game, order_id, directions, target, source)


def _given(
    game: GameContext, order_id: str, directions: DirectionString | None, target: str | None, source: str
) -> GivenOrder:
    """The order as a value: a plain one (no directions, no target) is the game's kept instance."""
    if directions is None and target is None:
        return game.plain_order(order_id, source)
    return GivenOrder(order_id, directions, target, source)


def _order_event(
    game: GameContext,
    ch: Character,
    order_id: str,
    trace: _Trace,
    card: EnemyOrderCard | None,
    column: str | None,
    row: str | None,
    entry: str | EnemyOrderEntry | None,
    directions: DirectionString | None,
    target: str | None,
    head: str,
    text: str,
    rule: str,
) -> None:
    """Emit the ``enemy_order`` event whose words and data are built only when read (its own
    function, so :func:`_emit`'s locals are not closure cells)."""

    def words() -> str:
        if text:
            return text
        order = game.data.orders.get(order_id)
        final = order.name + (f" {directions}" if directions is not None else "")
        final += _target_words(game, target)
        return f"{head}: {'; '.join(trace.parts)} → {final} ({', '.join(trace.rules)})."

    game.emit(
        "enemy_order",
        words,
        rule=rule,
        actor=ch.id,
        data=lambda: {
            "card": card.id if card is not None else None,
            "initiative": card.initiative if card is not None else None,
            "cards_read": list(trace.cards),
            "column": column,
            "row": row,
            "morale": ch.morale.value,
            "entry": str(entry) if entry is not None else None,
            "checks": trace.checks,
            "conversions": trace.conversions,
            "order": order_id,
            "directions": str(directions) if directions is not None else None,
            "target": target,
        },
    )


def _fixed(
    game: GameContext, ch: Character, order_id: str, text: str, rule: str, target: str | None = None
) -> GivenOrder:
    """An order given by a rule without reading a card (Melee, Medical Aid, wire Hide): event and order."""
    return _emit(game, ch, order_id, _Trace(*_hearing(game)), target=target, text=text, rule=rule)


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
    foes = [f for f in field.revealed[ch.side.other] if game.distance(ch.on_hex, f.on_hex) <= GC_RANGE]
    if not foes:
        if trace.say:
            trace.parts.append(f"{entry.flags} check: no Spotted Friendly within {GC_RANGE}")
        if trace.keep:
            trace.checks.append({"check": entry.flags, "result": "no Spotted Friendly within 4"})
        return None
    tried: Character | None = None
    if entry.charge_check:
        chargeable = [f for f in foes if _chargeable(game, field, f)]
        if not chargeable:
            if trace.say:
                trace.parts.append("C check: no Friendly within 4 can be charged (C2 27.2, §11)")
            if trace.keep:
                trace.checks.append({"check": "C", "result": "no chargeable Friendly"})
            trace.rule("C2 27.2")
        else:
            f = _nearest(game, ch, chargeable, "Charge target (§5.3 step 8)")
            out = _tqc(game, ch, ch.effective_tq, f"C check, Charge at {f.name} (9.6)")
            if trace.keep:
                _record_check(game, trace, "C", ch, f, out, "Charge")
            if out.passed:
                return ("charge", f.id)
            tried = f
    if entry.grenade_check:
        throwable = [f for f in foes if not field.melee(f.hex)]
        if not throwable:
            if trace.say:
                trace.parts.append("G check: every Friendly within 4 is in a melee hex (C2 23.2)")
            if trace.keep:
                trace.checks.append({"check": "G", "result": "no target outside melee"})
            return None
        f = tried if tried in throwable else _nearest(game, ch, throwable, "Grenade target (§5.3 step 8)")
        out = _tqc(game, ch, ch.effective_tq, f"G check, Grenade at {f.name} (9.6)")
        if trace.keep:
            _record_check(game, trace, "G", ch, f, out, "Grenade")
        if out.passed:
            return ("grenade", str(f.hex))
    return None


def _record_check(
    game: GameContext, trace: _Trace, flag: str, ch: Character, f: Character, out: CheckOutcome, what: str
) -> None:
    """The check's words (when ``trace.say``) and data (called only when ``trace.keep``)."""
    rng = game.distance(ch.on_hex, f.on_hex)
    if trace.say:
        verdict = "passed" if out.passed else "failed"
        natural = " (natural 9 always fails)" if out.roll == 9 else ""
        trace.parts.append(
            f"{flag} check: {f.name} at {f.hex}, {rng} hex{'es' if rng != 1 else ''}; "
            f"TQC rolled {out.roll} vs TQ {out.target}: {verdict}{natural}"
            + (f" → {what}" if out.passed else "")
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
    if ch.ammo is AmmoState.NO and orders.get(order_id).code in FIRE_CODES:
        _convert(trace, order_id, "reload", "10.10", "No Ammo")
        order_id, directions = "reload", None
    if st.ground in SPRINT_TO_EVADE_GROUNDS and order_id == "sprint":
        _convert(trace, order_id, "evade", "C2 28.2", f"ground {st.ground.replace('_', ' ')}: no Sprint")
        order_id = "evade"
    elif st.ground == DEEP_SNOW and order_id in DEEP_SNOW_TO_SNEAK:
        _convert(trace, order_id, "sneak", "C2 28.2", "Deep Snow: no Sprint, Evade or Run & Gun")
        order_id = "sneak"
    # The wire test first: both are pure, and a man is seldom in wire.
    if order_id != "sneak" and _wire_binds(game, field, ch) and _must_move(orders.get(order_id)):
        if directions is None and target is not None:
            directions = _string_toward(game, ch.hex, _target_hex(game, target))
        _convert(trace, order_id, "sneak", "C2 27.7", "in Barbed Wire only Sneak leaves the hex")
        order_id = "sneak"
    return order_id, directions


def _convert(trace: _Trace, frm: str, to: str, rule: str, why: str) -> None:
    if trace.say:
        trace.parts.append(f"{why}: {frm.replace('_', ' ')} becomes {to.replace('_', ' ')} ({rule})")
    if trace.keep:
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
    for drawn in range(MEDIC_REDRAW_LIMIT + 1):
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
        if drawn == MEDIC_REDRAW_LIMIT:
            break
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
        if w is not ch and w.wounds and 0 < game.distance(ch.on_hex, w.on_hex) <= MEDIC_RANGE
    ]
    if not wounded:
        return None
    w = _pick(
        game,
        wounded,
        key=lambda x: (game.distance(ch.on_hex, x.on_hex), -_wound_weight(x)),
        purpose=f"{ch.name}: which wounded comrade (C2 30.2)",
    )
    evade = game.data.orders.get("evade")
    best: tuple[Any, ...] | None = None
    for i, ds in enumerate(_DIRECTION_STRINGS):
        path = _path(game, ch, evade, ds, goal=w.on_hex)
        end = path[-1] if path else ch.on_hex
        reached = end == w.hex
        score = (
            0 if reached else 1,
            len(path) if reached else game.distance(end, w.on_hex),
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


def _protection(game: GameContext, h: Hex, group: int) -> int:
    """The fire chart cell of hex ``h`` for group ``group`` (lower is better for the man there)."""
    board = game.board
    rows = [board.terrain_of(h).chart_row, *(o.chart_row for o in board.overlays_of(h))]
    return min(game.data.charts.fire_cell(r, group).modifier for r in rows)


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


# ---------------------------------------------------------------------------
# What the order decisions read: who stands where, picks among equals, the TQ Check


def _give(game: GameContext, ch: Character, order: GivenOrder | None) -> GivenOrder | None:
    if order is not None:
        ch.order = order
    return order


class _Field:
    """Who stands where, read once: active men on the map by hex, and the Spotted/Known by side.

    Nobody moves during the Enemy phase, so one snapshot serves the whole phase
    (orders are read live from the characters).
    """

    __slots__ = ("by_hex", "revealed")

    def __init__(self, game: GameContext) -> None:
        by_hex: dict[Hex, list[Character]] = {}
        self.by_hex = by_hex
        self.revealed: dict[Side, list[Character]] = {Side.FRIENDLY: [], Side.ENEMY: []}
        revealed = self.revealed
        active = Status.ACTIVE
        for c in game.state.characters.values():
            h = c.hex
            if h is None or c.status is not active:  # ``is_active``, without the property call
                continue
            men = by_hex.get(h)
            if men is None:
                by_hex[h] = [c]
            else:
                men.append(c)
            if c.revealed:
                revealed[c.side].append(c)

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


def _chargeable(game: GameContext, field: _Field, f: Character) -> bool:
    """§11, C2 27.2, 23.3: not in a Fortified Building, not one of 2+ defenders, not incapacitated."""
    h = f.on_hex
    m = game.board.map
    if m.terrain[h] == FORTIFIED or FORTIFIED in m.overlays.get(h, ()):
        return False
    return sum(1 for c in field.here(h) if c.side is f.side) < 2


def _nearest(game: GameContext, ch: Character, options: list[Character], purpose: str) -> Character:
    return _pick(
        game, options, key=lambda f: game.distance(ch.on_hex, f.on_hex), purpose=f"{ch.name}: {purpose}"
    )


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


__all__ = [
    "FIRE_CODES",
    "GC_RANGE",
    "MEDIC_RANGE",
    "order_for",
]
