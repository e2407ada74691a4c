"""Event cards and the Event tables (base-rules §1 Step 1 e), §18-19): the roll on a side's table and
what each entry does.

May import: the artillery, weather and smoke rules below it, and the rooms below rules."""

from __future__ import annotations

from typing import Any

from solo.data.event_tables import EventEntry, EventKind, EventTables, _shipped_event_tables
from solo.data.friendly_deck import EventTable, FriendlyCardKind, TriggerEvent
from solo.rules.artillery import call_support_fire, target_table
from solo.rules.context import GameContext
from solo.rules.effects import (
    _ammo_full,
    _leaders_reach,
    _morale_check,
    _morale_gain,
    _remove_light_wound,
    _reveal,
    _roster_index,
    _side_name,
)
from solo.rules.state import AmmoState, Phase, Side
from solo.rules.weather import change_weather

EVENT_CHAIN_LIMIT = 1
"""[house] "Roll on the other table" is followed once; a second chain reads as nothing."""


def event_tables(game: GameContext) -> EventTables:
    """The Event tables of this game: ``game.data.events`` if the data has them, else the shipped file."""
    tables = getattr(game.data, "events", None)
    return tables if isinstance(tables, EventTables) else _shipped_event_tables()


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


def _variant(game: GameContext, table: EventTable) -> str:
    """The variant the scenario gives ``table`` (``events: {friendly: attacking, enemy: defending}``)."""
    events = getattr(game.scenario, "events", None)
    value = getattr(events, table.value, None)
    return getattr(value, "value", value) or ("attacking" if table is EventTable.FRIENDLY else "defending")


def roll_event_table(game: GameContext, table: EventTable, *, cause: str, depth: int = 0) -> EventEntry:
    """Roll a d10 on ``table`` and apply the entry (base-rules §18); returns the entry read.

    The table is the variant the scenario's ``events`` names for that side when the Event
    tables file gives one (``variants:``), else the side's main table.
    """
    tables = event_tables(game)
    variant = _variant(game, table)
    own = tables.has_variant(table, variant)
    roll = game.dice.d10(f"{table.value.capitalize()} Event table ({cause})").total
    entry = tables.entry(table, roll, variant)
    name = f"{table.value.capitalize()} Event table" + (f" ({variant})" if own else "")
    game.emit(
        "event_table",
        f"{name}, roll {roll}: {entry.title}. {entry.text}",
        rule="18",
        data={
            "table": table.value,
            "roll": roll,
            "kind": entry.kind.value,
            "title": entry.title,
            **({"variant": variant} if own else {}),
        },
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
            card = game.friendly_deck.draw_card(game.dice, f"extra card ({why})")
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
    elif kind is EventKind.REINFORCEMENTS:
        _call_reinforcements(game, side, why)
    elif kind is EventKind.MINEFIELD_MC:
        _minefield_mc(game, side.other, entry.count, why)
    else:
        game.emit("event_effect", f"No effect ({why}).", rule=rule)


def _call_reinforcements(game: GameContext, side: Side, why: str) -> None:
    """§18 "reinforcements": the first waiting ``event`` wave of ``side`` (scenario order) is due in
    the next Step 3 a): this turn's if the Enemy Card and Order Phase has not begun, else the next
    turn's. None left: no effect."""
    st = game.state
    waves = [
        w
        for w in st.flags.get("reinforcements", ())
        if w.get("event") and not w["placed"] and w["turn"] is None and st.teams[w["team"]].side is side
    ]
    if not waves:
        text = f"No {_side_name(side)} reinforcements are left to call ({why})."
        game.emit("event_effect", text, rule="18")
        return
    wave = waves[0]
    early = st.flow.phase in (Phase.SETUP, Phase.FRIENDLY_CARD, Phase.FRIENDLY_ORDER)
    wave["turn"] = st.flow.turn if early else st.flow.turn + 1
    game.emit(
        "event_effect",
        f"{_side_name(side).capitalize()} reinforcements are on their way: team "
        f"{st.teams[wave['team']].name} arrives in Step 3 a) of turn {wave['turn']} ({why}).",
        rule="18; 5.7",
        data={"wave": wave["wave"], "turn": wave["turn"]},
    )


def _minefield_mc(game: GameContext, side: Side, count: int, why: str) -> None:
    """§18 "minefield MC": ``count`` characters of ``side`` on foot, picked at random (logged), take an
    MC (a failed one: Duck Back). A dummy picked takes nothing [house]."""
    pool = [c for c in game.state.active(side) if c.vehicle is None]
    for _ in range(count):
        if not pool:
            game.emit("event_effect", f"No {_side_name(side)} character is on foot ({why}).", rule="18")
            return
        names = [c.name if c.revealed or side is Side.FRIENDLY else "an Unknown enemy" for c in pool]
        pick = game.dice.choice(names, f"minefield: who steps near a mine ({why})")
        ch = pool.pop(pick.index)
        game.emit(
            "event_effect",
            f"A mine goes off near {names[pick.index]} at {ch.hex} ({why}).",
            rule="18",
            actor=ch.id,
            data={"hex": str(ch.hex)},
        )
        if not ch.dummy:
            _morale_check(game, ch, cause=f"a mine ({why})", rule="18; 7")


def _reveal_nearest(game: GameContext, side: Side, why: str) -> None:
    """Reveal the unrevealed opponent of ``side`` nearest one of ``side``'s characters (§18)."""
    st = game.state
    mine = [c for c in st.active(side) if not c.dummy]
    hidden = [c for c in st.active(side.other) if not c.revealed]
    if not mine or not hidden:
        game.emit("event_effect", f"Nobody to reveal ({why}).", rule="18")
        return
    rank = _roster_index(game)
    target = min(hidden, key=lambda c: (min(game.distance(c.on_hex, m.on_hex) for m in mine), rank[c.id]))
    _reveal(game, target, why, "18")
