"""The scenario overrides of the Enemy order lookup (base-rules §5.3 step 4 [reconstructed]).

Two scenario keys (:class:`~solo.data.scenario_format.Scenario`), read before a card is drawn:

- ``first_orders``: a d10 table of ten forced orders (face 0-9). An Alert Enemy's first order
  (on turn 1 for the men set up on the map, on the turn of arrival for a reinforcement without
  a forced order) is the entry rolled instead of a card. [house] A trained medic never takes a
  fire order from it (C2 30.2): he draws a card as usual.
- ``building_aimed_fire``: an Alert Enemy in a Building hex (Building, Fortified Building,
  Abbey) who sees a Spotted Friendly takes a TQC on his effective TQ; passed, Aimed Fire with no
  card; failed, he draws. [house] He needs a Spotted Friendly in LOS, since Aimed Fire with no
  target does nothing; trained medics and men in vehicles never take it.

Both apply in the Enemy Card and Order Phase only (not to orders drawn on activation under
C2 23.5). Each returns the order given (and emits its ``enemy_order`` event) or None.

May import: :mod:`~solo.enemy.order_lookup`, :mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.data.scenario_format import parse_forced_order
from solo.enemy.order_lookup import _conversions, _emit, _Field, _hearing, _tqc, _Trace
from solo.rules.firing import _is_building
from solo.rules.state import Character, GivenOrder

if TYPE_CHECKING:
    from solo.rules.context import GameContext

FIRST_ORDER_RULE = "§5.3 step 4"
"""The rule both overrides cite."""
FIRE_ORDERS_FOR_MEDIC = ("aimed_fire", "rapid_fire", "suppressive_fire", "run_and_gun", "charge", "grenade")
"""Orders a trained medic never takes from the first-order table (C2 30.0, 30.2)."""


def first_order(game: GameContext, field: _Field, ch: Character, *, arrived: bool) -> GivenOrder | None:
    """§5.3 step 4: ``ch``'s first order from the scenario's d10 ``first_orders`` table, or None.

    Applies when the scenario has the table and either it is turn 1 or ``ch`` arrived this turn
    as a reinforcement (``arrived``). Rolls one d10 (face 0-9 = entry) and emits the
    ``enemy_order`` event (``data["entry"]``: the table entry, ``data["checks"]``: the roll). The
    §4 conversions (No Ammo → Reload, ground, wire) apply as to a card's order.
    """
    table = game.scenario.first_orders
    if not table or not (arrived or game.state.flow.turn == 1):
        return None
    roll = game.dice.d10(f"{ch.name}: first-order table (§5.3 step 4)").total
    forced = parse_forced_order(table[roll], game.data.orders)
    if ch.trained_medic and forced.order in FIRE_ORDERS_FOR_MEDIC:
        game.emit(
            "first_order_skipped",
            f"{ch.name}, a trained medic, rolls {roll} on the first-order table: {table[roll]} is a fire "
            "order, so he draws a card instead (§5.3 step 4; C2 30.2 [house]).",
            rule=f"{FIRST_ORDER_RULE}; C2 30.2",
            actor=ch.id,
            data={"roll": roll, "entry": table[roll]},
        )
        return None
    trace = _Trace(*_hearing(game))
    trace.rule(FIRST_ORDER_RULE)
    if trace.keep:
        trace.checks.append({"check": "first_orders", "roll": roll})
    head = ""
    if trace.say:
        when = "arrives this turn" if arrived else "turn 1"
        trace.parts.append(
            f"first order ({when}): d10 {roll} on the scenario's first-order table reads '{table[roll]}'"
        )
        head = f"{ch.name} ({ch.morale.value.capitalize()})"
    order_id, directions = _conversions(game, field, ch, forced.order, forced.directions, None, trace)
    return _emit(game, ch, order_id, trace, entry=table[roll], directions=directions, head=head)


def building_aimed_fire(game: GameContext, field: _Field, ch: Character) -> GivenOrder | None:
    """§5.3 step 4: "in a Building + TQC → Aimed Fire", when the scenario sets ``building_aimed_fire``.

    ``ch`` in a Building hex, not a trained medic nor in a vehicle, seeing a Spotted Friendly:
    a TQC on his effective TQ (natural 0 passes, natural 9 fails); passed, Aimed Fire with no
    card and its event; failed (or not applicable), None and he draws a card.
    """
    if not game.scenario.building_aimed_fire or ch.trained_medic or ch.vehicle is not None:
        return None
    if ch.hex is None or not _is_building(game, ch.hex):
        return None
    seen = [f for f in field.revealed[ch.side.other] if game.sees(ch, f)]
    if not seen:
        return None
    out = _tqc(game, ch, ch.effective_tq, "in a Building: Aimed Fire? (§5.3 step 4)")
    verdict = "passed" if out.passed else "failed"
    game.emit(
        "check",
        f"{ch.name} is in a Building and sees {seen[0].name}: TQC rolled {out.roll} vs TQ "
        f"{ch.effective_tq}, {verdict} (§5.3 step 4).",
        rule=FIRST_ORDER_RULE,
        actor=ch.id,
        data={
            "check": "building_aimed_fire",
            "roll": out.roll,
            "target": ch.effective_tq,
            "passed": out.passed,
        },
    )
    if not out.passed:
        return None
    trace = _Trace(*_hearing(game))
    trace.rule(FIRST_ORDER_RULE)
    if trace.keep:
        trace.checks.append({"check": "building_aimed_fire", "roll": out.roll, "passed": True})
    head = ""
    if trace.say:
        trace.parts.append(f"in a Building with a Spotted Friendly in sight, TQC {out.roll} passed")
        head = f"{ch.name} ({ch.morale.value.capitalize()}, in a Building)"
    order_id, directions = _conversions(game, field, ch, "aimed_fire", None, None, trace)
    return _emit(game, ch, order_id, trace, directions=directions, head=head)
