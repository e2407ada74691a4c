"""Character movement (base-rules §6, §11, §16; C2 27.3, 27.7, 28.2, 29.2, 30.0): one Impulse of
an order's track, hex by hex along its direction slots.

The orders a Friendly may be given are :mod:`solo.rules.friendly_orders`; direction strings
and the Direction Counter :mod:`solo.rules.direction_numbers`; whether a hex may be entered
:mod:`solo.rules.entering`.

* :func:`move` moves a character hex by hex for one Impulse along the HOUSE
  RULE direction slots of §6: for ``X/Y`` slot A = X and slot B = Y (``X`` alone:
  A = B = X); if the slotted hex cannot be entered the other direction is
  tried, else the character stops for the rest of the Impulse (§6 step 4).
  Enemy directions are read through the nearest Direction Counter
  (:func:`solo.rules.direction_numbers.map_direction`); the player's directions are the map's.
* :func:`move_steps` is the same for any list of slots (Run & Gun moving
  instead of firing, 10.04, is the combat module's call).
* :func:`end_of_impulse` gives Duck Back to whoever entered Rough terrain with
  Sprint this Impulse (11.0).

Every character that moves (or tries to and cannot) gets one ``move`` event
per Impulse with the path, the slots read and why it stopped; rolls (barbed
wire TQCs, Direction Counter ties, fleeing medics) are logged by the dice.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from solo.core.hexes import Hex
from solo.data.orders import Order, OrderFlag, Slot, TrackStep
from solo.data.tables import CheckKind
from solo.rules import minefields
from solo.rules.direction_numbers import map_direction
from solo.rules.entering import (
    WIRE_ONLY_ORDER,
    Entry,
    _burning,
    _casualty_here,
    _opponents_at,
    _passable,
    entry,
    in_wire,
    is_rough,
)
from solo.rules.spotting import alert as alert_enemy
from solo.rules.spotting import remove_dummy
from solo.rules.state import Side, Status

if TYPE_CHECKING:
    from solo.core.decisions import Decision
    from solo.rules.context import GameContext
    from solo.rules.state import Character


CONTACT_GIVES_MELEE = True
"""[house] base-rules §11 "a Melee marker is placed": when a mover ends up sharing a hex with
opponents, the mover (unless he Charges: his X on I4 is his melee) and the opponents there
who hold an order take Melee for the rest of the turn."""

SPRINT_ROUGH_KEY = "sprint_rough"
"""``ch.acted`` key: the hex of Rough terrain a Sprinter entered this Impulse (11.0)."""
HEXES_MOVED_KEY = "hexes_moved"
"""``ch.acted`` key: hexes moved this turn (for other modules)."""

BOCAGE = "bocage"
"""Hexside feature whose crossing ends the Impulse's move (base-rules §16 hexsides)."""


# ---------------------------------------------------------------------------
# Friendly orders (base-rules §4 limits)


# ---------------------------------------------------------------------------
# Directions (base-rules §6)


# ---------------------------------------------------------------------------
# Entering a hex (base-rules §6 step 5, §11; C2 29.2)


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
        wired = in_wire(game, ch, frm)  # asked once: nothing changes before _go
        if wired and order.id != WIRE_ONLY_ORDER:
            self.stop(f"Barbed Wire at {frm}: only Sneak may leave it", "C2 27.7")
            return False
        tried: list[tuple[int, int, Hex | None, Entry]] = []
        for d in dict.fromkeys((first, second)):
            md = self._map(d)
            to, verdict = entry(game, ch, order, frm, md)
            tried.append((d, md, to, verdict))
            if verdict.enters or verdict in (Entry.LEAVES_MAP, Entry.EXITS):
                break
        d, md, to, verdict = tried[-1]
        if not (verdict.enters or verdict in (Entry.LEAVES_MAP, Entry.EXITS)):
            self._blocked(frm, tried)
            return False
        self.used.append(f"{slot.value}={d}" + (f"→{md}" if md != d else ""))
        if len(tried) > 1:
            self.notes.append(f"slot {slot.value} ({tried[0][0]}) blocked: {tried[0][3].value}; took {d}")
            self.rule("base-rules §6 step 4")
        return self._go(frm, md, to, verdict, wired)

    def step_to(self, md: int) -> bool:
        """A Charge step in map direction ``md`` along the shortest path. True to go on."""
        game, ch, order = self.game, self.ch, self.order
        frm = ch.hex
        assert frm is not None
        wired = in_wire(game, ch, frm)  # asked once: nothing changes before _go
        if wired and order.id != WIRE_ONLY_ORDER:
            self.stop(f"Barbed Wire at {frm}: only Sneak may leave it", "C2 27.7")
            return False
        to, verdict = entry(game, ch, order, frm, md)
        if not verdict.enters:
            self._blocked(frm, [(md, md, to, verdict)])
            return False
        self.used.append(f"charge→{md}")
        return self._go(frm, md, to, verdict, wired)

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

    def _go(self, frm: Hex, md: int, to: Hex | None, verdict: Entry, wired: bool) -> bool:
        """Leave ``frm`` (wire TQC when ``wired``: :func:`in_wire` there) and enter ``to``; the
        after-effects. True to go on."""
        game, ch, order = self.game, self.ch, self.order
        if wired:
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
        if verdict is Entry.EXITS:
            self.path.append(None)
            self.stop("Left the map by a scenario exit", "§19")
            self.report()
            ch.status = Status.EXITED
            ch.hex = None
            ch.order = None
            game.emit(
                "exited",
                f"{ch.name} leaves the map from {frm} by a scenario exit (§19).",
                rule="base-rules §19",
                actor=ch.id,
                data={"hex": str(frm), "direction": md},
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
        mined = minefields.man_enters(game, ch, to)
        if mined and ch.order is not None and ch.order.order == "duck_back":
            self.stop(f"a mine goes off in {to}: Duck Back", "C2 31.5 [house]")
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
        rule = ", ".join(self.rules)

        def words() -> str:
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
            return text + f" ({rule})."

        game.emit(
            "move",
            words,
            rule=rule,
            actor=ch.id,
            data=lambda: {
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
