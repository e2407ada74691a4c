"""Spotting, alerting, dummies and hiding (base-rules §3, §5.6, §9, 8.1; C2 23.1, 24.1, 27.5-27.7, 28.2).

* :func:`spot` is one spotting attempt: a d10 against the threshold of
  :func:`spot_check` (effective TQ, morale, the spotting chart, range, smoke,
  Abbey, Eagle Eyes, Winter Camouflage). A natural 9 always fails (C2 23.1).
  Success: a Friendly target is Spotted, an Enemy target Known, a dummy target
  removed; a Waiting Enemy spotter becomes Alert (§5.6 condition 9), a dummy
  spotter is removed.
* :func:`spotting_segment` (Step 4 a) ii)) and :func:`impulse_start` (Waiting
  enemies) decide who tries to spot whom.
* :func:`alert`, :func:`alert_near` are the alerting hooks other modules call
  (conditions 1, 3, 5, 7); :func:`end_phase_alerts` applies conditions 6 and 8.
* :func:`remove_dummy` takes a dummy off the map (spotted, spotting, entered,
  searched, caught by a grenade).
* :func:`end_phase_hide`: a Spotted Friendly on Hide in Cover may become Hidden (8.1).

The chart row of a target (:func:`cover_rows`, :func:`best_row`) is also what
the fire chart needs: the target's terrain, its overlays (a foxhole in Trees:
the better row, C2 27.6; Barbed Wire: the other terrain, 27.7), a hedge, wall
or bocage on the hexside the line crosses into the target's hex (§9 step 5),
and the Abbey row by where the viewer stands (C2 27.5).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.events import Event
from solo.core.hexes import Hex
from solo.data.tables import CheckKind
from solo.data.terrain import Abbey
from solo.rules.state import Side, Status

if TYPE_CHECKING:
    from solo.rules.context import GameContext
    from solo.rules.los import Sight
    from solo.rules.state import Character

EAGLE_EYES = "eagle_eyes"
"""Skill id: +1 TQ when spotting, to at most TQ 8 (C2 24.1)."""
EAGLE_EYES_CAP = 8
"""C2 24.1: Eagle Eyes never raises the spotting TQ above 8."""
WINTER_CAMOUFLAGE = "winter_camouflage"
"""Skill id: -1 to spot this character in snow or deep snow (C2 28.2)."""
SNOW_GROUNDS = ("snow", "deep_snow")
ALERT_FIRE = 10
"""§5.6 condition 1: a weapon fired within this many hexes alerts Waiting enemies."""
ALERT_HIT = 3
"""§5.6 condition 3: a character hit within this many hexes."""
ALERT_EXPLOSION = 5
"""§5.6 condition 5: a grenade, shell or C4 exploding within this many hexes (not smoke)."""
ALERT_MELEE = 3
"""§5.6 condition 7: a melee within this many hexes."""
ALERT_NEIGHBOUR = 3
"""§5.6 condition 8 (End Phase): an Alert enemy within this many hexes."""
DUMMY_SPOT_REVEALS = True
"""[house] A dummy that spots a Friendly flips him to Spotted before it is removed (§3, §5.6
condition 9: "a dummy is then removed"). False: the dummy is removed and the Friendly stays Hidden."""
REMOVED_DUMMIES = "removed_dummies"
"""``state.flags`` key: ids of the dummies removed so far (status EXITED, hex None)."""
SEGMENT_KEY = "spot_segment"
"""``ch.acted`` key: the (turn, Impulse) of ch's last spotting segment (once per activation)."""


@attrs.frozen
class SpotCheck:
    """The threshold of one spotting attempt, part by part (base-rules §9 step 2)."""

    tq: int
    """Effective TQ of the spotter (the scenario's dummy TQ for a dummy)."""
    eagle_eyes: int
    """C2 24.1: +1, not above TQ 8."""
    morale: int
    """The spotter's morale fire-WS modifier (§20 Q7, option ``morale_modifies_spotting``)."""
    row: str
    """The spotting chart row read (target terrain, overlay or hexside: the most protective)."""
    row_from: str
    """Where the row comes from (``"terrain trees"``, ``"overlay foxhole"``, ``"hexside hedge"``)."""
    group: int
    """The target's spot group S0-S6 (his order; a Waiting enemy S2)."""
    chart: int
    range: int
    """Hexes from spotter to target."""
    range_modifier: int
    smoke: int
    """The line's smoke modifier (-4 per Smoke, -2 per Fading hex, ends included; §13)."""
    abbey: int
    """-1 per Abbey hex the line passes through inside the Abbey (C2 27.5)."""
    camouflage: int
    """C2 28.2 Winter Camouflage: -1 in snow or deep snow."""
    extra: tuple[tuple[str, int], ...] = ()
    """Other modifiers by name, given by the caller (vehicle crews: closed hatch -2, Spot order +1,
    C2 31.7.3)."""

    @property
    def threshold(self) -> int:
        """The number a d10 must not exceed (unclamped; a 9 fails anyway)."""
        return (
            self.tq
            + self.eagle_eyes
            + self.morale
            + self.chart
            + self.range_modifier
            + self.smoke
            + self.abbey
            + self.camouflage
            + sum(v for _, v in self.extra)
        )

    def breakdown(self) -> str:
        """``"TQ 5 + morale 0 + open/S2 0 + range 7: 0 + smoke 0 = 5"`` (extras only when not 0)."""
        parts = [f"TQ {self.tq}"]
        if self.eagle_eyes:
            parts.append(f"Eagle Eyes {self.eagle_eyes:+d}")
        parts.append(f"morale {_signed(self.morale)}")
        parts.append(f"{self.row}/S{self.group} {_signed(self.chart)}")
        parts.append(f"range {self.range}: {_signed(self.range_modifier)}")
        parts.append(f"smoke {_signed(self.smoke)}")
        if self.abbey:
            parts.append(f"abbey {self.abbey:+d}")
        if self.camouflage:
            parts.append(f"camouflage {self.camouflage:+d}")
        parts.extend(f"{name} {_signed(v)}" for name, v in self.extra)
        return " + ".join(parts) + f" = {self.threshold}"

    def to_dict(self) -> dict[str, Any]:
        """The parts and the threshold, for an event's ``data``."""
        out: dict[str, Any] = attrs.asdict(self)
        extra = out.pop("extra")
        if extra:
            out["extra"] = {name: v for name, v in extra}
        out["threshold"] = self.threshold
        return out


def _signed(v: int) -> str:
    return "0" if v == 0 else f"{v:+d}"


# ---------------------------------------------------------------------------
# Chart rows (base-rules §9 step 5; C2 27.5-27.7)


def cover_rows(game: GameContext, viewer_hex: Hex, target_hex: Hex) -> list[tuple[str, str]]:
    """The chart rows that may protect a target on ``target_hex`` seen from ``viewer_hex``.

    ``[(row id, where from), ...]``, the terrain's first: the terrain (an Abbey
    hex reads ``abbey_inside`` when the viewer is in the Abbey too, else
    ``abbey_outside``, C2 27.5); each overlay except Barbed Wire (27.7: the
    other terrain counts); the hedge, wall or bocage on the hexside the line
    crosses into the target's hex (§9 step 5; a line along a hexspine crosses a
    corner: only when both hexsides there carry a feature, the clearer one); the
    'In hex with AFV/Half-Track' line when one stands there (C2 27.9, :func:`vehicle_cover`).
    The caller takes the most protective for its group (:func:`best_row`).
    """
    board = game.board
    t = board.terrain_of(target_hex)
    row = t.chart_row
    if t.abbey is not Abbey.NONE:
        row = "abbey_inside" if board.terrain_of(viewer_hex).abbey is not Abbey.NONE else "abbey_outside"
    rows = [(row, f"terrain {t.id}")]
    for o in board.overlays_of(target_hex):
        if not o.rough_unless_hiding:
            rows.append((o.chart_row, f"overlay {o.id}"))
    feature = edge_feature(game, viewer_hex, target_hex)
    if feature is not None:
        rows.append((board.terrain_table[feature].chart_row, f"hexside {feature}"))
    if vehicle_cover(game, target_hex):
        rows.append((WITH_VEHICLE_ROW, "in hex with AFV/Half-Track"))
    return rows


WITH_VEHICLE_ROW = "with_afv"
"""C2 27.9: the 'In hex with AFV/Half-Track' line of the Spotting and Order/Terrain charts."""
_COVER_KINDS = ("afv", "half_track")


def vehicle_cover(game: GameContext, h: Hex) -> bool:
    """C2 27.9: whether an AFV or Half-Track stands in ``h``, so that a man on foot there may use the 'In
    hex with AFV/Half-Track' chart line instead of the terrain. A destroyed one (a wreck) counts
    while the house option ``wreck_cover`` is true (the rule text does not say)."""
    vs = getattr(game.state, "vehicles", None)
    if not vs:
        return False
    for v in vs.values():
        if (
            v.hex == h
            and (not v.destroyed or game.options.wreck_cover)
            and game.data.vehicles.get(v.type).kind.value in _COVER_KINDS
        ):
            return True
    return False


def edge_feature(game: GameContext, viewer_hex: Hex, target_hex: Hex) -> str | None:
    """The hedge, wall or bocage on the target's edge that the line from the viewer crosses (§9 step 5)."""
    if viewer_hex == target_hex:
        return None
    board = game.board
    ib = board.index[target_hex]
    sides = board.hexside_top
    if not any(n >= 0 and ((ib, n) if ib < n else (n, ib)) in sides for n in board.neighbours[ib][1:]):
        return None
    steps = game.los.line_indices(board.index[viewer_hex], board.index[target_hex])
    before = [i for i in steps[-2] if i >= 0]
    feats = [board.hexside_feature(board.hexes[i], target_hex) for i in before]
    if not feats or any(f is None for f in feats):
        return None
    if len(feats) == 1:
        return feats[0]
    # Along a hexspine the line crosses a corner: the clearer (lower) of the two features,
    # as LOS along a hexside takes the clearer side (§16 step 2) [house].
    table = board.terrain_table
    return min((f for f in feats if f is not None), key=lambda f: (table[f].obstacle, f))


def best_row(rows: list[tuple[str, str]], value: Callable[[str], int]) -> tuple[str, str, int]:
    """The most protective of ``rows`` (lowest ``value(row)``), the first on ties: (row, from, value)."""
    best: tuple[str, str, int] | None = None
    for row, frm in rows:
        v = value(row)
        if best is None or v < best[2]:
            best = (row, frm, v)
    assert best is not None
    return best


def target_spot_group(game: GameContext, target: Character) -> int:
    """The spotting chart column S0-S6 of ``target`` (his order, base-rules §4).

    A Waiting enemy (or an Alert one still without an order) reads the
    ``waiting`` row (S2); a Friendly without an order counts as Hide (7.0);
    an order without a group (vehicle speeds) reads S2 [house].
    """
    orders = game.data.orders
    if target.side is Side.ENEMY and (not target.alert or target.order is None):
        group = orders.get("waiting").spot_group
    elif target.order is None:
        group = orders.get("hide").spot_group
    else:
        group = orders.get(target.order.order).spot_group
    return 2 if group is None else group


# ---------------------------------------------------------------------------
# Spotting (base-rules §9)


def spot_check(
    game: GameContext,
    spotter: Character,
    target: Character,
    sight: Sight | None = None,
    *,
    modifiers: Sequence[tuple[str, int]] = (),
) -> SpotCheck | None:
    """The threshold for ``spotter`` to spot ``target``, or None without LOS (base-rules §9 step 2).

    ``sight`` may be given when already computed (``game.sight(spotter, target.hex, target=target)``).
    ``modifiers``: extra ``(name, value)`` modifiers added to the threshold (vehicle crews'
    closed hatch and Spot order, C2 31.7.3); shown by name in the breakdown.
    """
    if spotter.hex is None or target.hex is None:
        return None
    if sight is None:
        sight = game.sight(spotter, target.hex, target=target)
    if not sight.clear:
        return None
    tq = game.options.dummy_tq if spotter.dummy else spotter.effective_tq
    eagle = 0
    if spotter.has_skill(EAGLE_EYES) and not spotter.dummy:
        eagle = min(1, max(0, EAGLE_EYES_CAP - tq))
    morale = game.data.checks.morale(spotter.morale).fire_ws if game.options.morale_modifies_spotting else 0
    group = target_spot_group(game, target)
    charts = game.data.charts
    row, row_from, chart = best_row(
        cover_rows(game, spotter.hex, target.hex), lambda r: charts.spot_modifier(r, group)
    )
    camo = -1 if target.has_skill(WINTER_CAMOUFLAGE) and game.state.ground in SNOW_GROUNDS else 0
    return SpotCheck(
        tq=tq,
        eagle_eyes=eagle,
        morale=morale,
        row=row,
        row_from=row_from,
        group=group,
        chart=chart,
        range=sight.range,
        range_modifier=charts.spot_range_modifier(sight.range),
        smoke=sight.smoke,
        abbey=sight.abbey,
        camouflage=camo,
        extra=tuple((str(n), int(v)) for n, v in modifiers),
    )


def spot(
    game: GameContext,
    spotter: Character,
    target: Character,
    *,
    sight: Sight | None = None,
    modifiers: Sequence[tuple[str, int]] = (),
) -> bool:
    """One spotting attempt by ``spotter`` at ``target`` (base-rules §9; C2 23.1, 24.1).

    d10 (faces 0-9) <= :meth:`SpotCheck.threshold` succeeds; a natural 9 always
    fails. Without LOS: False, no roll. A target already Spotted/Known: True,
    no roll. Success: a Friendly target becomes Spotted, an Enemy target Known
    (a dummy is removed); a Waiting Enemy spotter becomes Alert (§5.6
    condition 9) and a dummy spotter is removed (a real one stays Unknown).
    Emits one ``spot`` event with the threshold part by part. ``sight``: the
    LOS answer when the caller already has it; ``modifiers``: extra named
    modifiers (see :func:`spot_check`).
    """
    if target.revealed:
        return True
    check = spot_check(game, spotter, target, sight, modifiers=modifiers)
    if check is None:
        return False
    roll = game.dice.d10(f"spot: {spotter.name} -> {target.name} (§9)").total
    threshold = check.threshold
    ok = roll != 9 and roll <= threshold
    if ok:
        verdict = "Spotted" if target.side is Side.FRIENDLY else "Known"
        if target.dummy:
            verdict = "a dummy"
    else:
        verdict = "natural 9: fails" if roll == 9 else "fails"
    rules = ["§9", "C2 23.1"]
    if check.eagle_eyes:
        rules.append("C2 24.1")
    if check.abbey or check.row.startswith("abbey"):
        rules.append("C2 27.5")
    if check.camouflage:
        rules.append("C2 28.2")
    if check.row_from.startswith("overlay"):
        rules.append("C2 27.6")
    if check.extra:
        rules.append("C2 31.7.3")
    game.emit(
        "spot",
        lambda: (
            f"{spotter.name} tries to spot {target.name} at {target.hex}: d10 {roll} vs "
            f"{check.breakdown()} ({check.row_from}) → {verdict}."
        ),
        rule=", ".join(rules),
        actor=spotter.id,
        data=lambda: {
            "spotter": spotter.id,
            "target": target.id,
            "roll": roll,
            "success": ok,
            **check.to_dict(),
        },
    )
    if not ok:
        return False
    _spotted(game, spotter, target)
    return True


def _spotted(game: GameContext, spotter: Character, target: Character) -> None:
    """The effects of a successful spot (base-rules §9 step 4, §5.6 condition 9)."""
    if target.dummy:
        remove_dummy(game, target, f"spotted by {spotter.name}", "§9, §3")
    elif not (spotter.dummy and not DUMMY_SPOT_REVEALS):
        target.revealed = True
    if spotter.side is Side.ENEMY:
        if spotter.dummy:
            remove_dummy(game, spotter, f"it spotted {target.name}", "§5.6 condition 9, §3")
        elif not spotter.alert:
            alert(game, spotter, f"he spotted {target.name}", "§5.6 condition 9")


def spotting_segment(game: GameContext, ch: Character) -> None:
    """Step 4 a) ii): ``ch`` tries to spot every opponent in LOS not yet Spotted/Known (§9 step 6).

    Once per activation (a second call in the same Impulse does nothing; no
    new try after moving, C2 31.7.4 example). Roster order. A Waiting enemy
    spots at the start of the Impulse instead (:func:`impulse_start`).
    """
    flow = game.state.flow
    key = (flow.turn, flow.impulse)
    if ch.acted.get(SEGMENT_KEY) == key:
        return
    ch.acted[SEGMENT_KEY] = key
    if ch.side is Side.ENEMY and not ch.alert:
        return
    # Every opponent in roster order; the scan skips the inactive, the off-map and the
    # Spotted/Known, and stops when ch is gone (a dummy removed after spotting).
    for target, sight in game.opponents_in_sight(ch):
        spot(game, ch, target, sight=sight)


def impulse_start(game: GameContext) -> None:
    """Impulse start: every Waiting enemy tries to spot every unspotted Friendly in LOS (§9 step 6).

    A success alerts him (§5.6 condition 9); a dummy that spots is removed.
    Roster order on both sides.
    """
    st = game.state
    for en in st.active(Side.ENEMY):
        if en.alert:
            continue
        for f, sight in game.opponents_in_sight(en):
            spot(game, en, f, sight=sight)


# ---------------------------------------------------------------------------
# Alerting (base-rules §5.6) and dummies (§3)


def alert(game: GameContext, ch: Character, reason: str, rule: str) -> bool:
    """Make Waiting enemy ``ch`` Alert (base-rules §5.6). True if he was Waiting.

    The Enemy decides what follows (``game.enemy.alert``: Prepared or Unprepared, its own event).
    """
    if ch.side is not Side.ENEMY or ch.alert or not ch.is_active:
        return False
    game.enemy.alert(game, ch, reason, rule)
    ch.alert = True
    return True


def alert_near(game: GameContext, where: Hex, radius: int, reason: str, rule: str) -> list[str]:
    """Alert every Waiting enemy within ``radius`` hexes of ``where`` (base-rules §5.6).

    Conditions: 1 a weapon fired (:data:`ALERT_FIRE` = 10 hexes), 3 a character
    hit (:data:`ALERT_HIT` = 3), 5 an explosion (:data:`ALERT_EXPLOSION` = 5), 7
    a melee (:data:`ALERT_MELEE` = 3). No LOS is needed. Dummies are alerted
    too (they act as Unknown enemies, §3). Returns the ids alerted, roster order.
    """
    out = []
    for en in game.state.active(Side.ENEMY):
        if en.alert or en.hex is None:
            continue
        if game.distance(en.hex, where) <= radius and alert(game, en, reason, rule):
            out.append(en.id)
    return out


def remove_dummy(game: GameContext, ch: Character, reason: str, rule: str) -> None:
    """Take dummy ``ch`` off the map (base-rules §3): spotted, spotting, entered, searched, blasted.

    [house] Its status becomes EXITED with no hex and no order, and its id is
    added to ``state.flags["removed_dummies"]`` (it is neither killed nor
    exited for victory points). Does nothing for a real character.
    """
    if not ch.dummy or ch.hex is None:
        return
    where = ch.hex
    ch.hex = None
    ch.order = None
    ch.status = Status.EXITED
    game.state.flags.setdefault(REMOVED_DUMMIES, []).append(ch.id)
    game.emit(
        "dummy_removed",
        f"{ch.name} at {where} was a dummy: removed ({reason}; {rule}).",
        rule=rule,
        actor=ch.id,
        data={"hex": str(where), "reason": reason},
    )


def end_phase_alerts(game: GameContext) -> None:
    """Step 5 c): alert conditions 6 and 8 (base-rules §5.6).

    6: a Waiting enemy within the LDR range (hexes) of a Known, Alert enemy
    officer or NCO (LDR > 0); 8: within :data:`ALERT_NEIGHBOUR` (3) hexes of an
    Alert enemy. Both read who was Alert when the step began: a man alerted
    here does not alert others in the same End Phase [house].
    """
    enemies = game.state.active(Side.ENEMY)
    awake = [e for e in enemies if e.alert and e.hex is not None]
    leaders = [e for e in awake if e.ldr > 0 and e.revealed and not e.dummy]
    for en in enemies:
        if en.alert or en.hex is None:
            continue
        leader = next((x for x in leaders if game.distance(en.on_hex, x.on_hex) <= x.ldr), None)
        if leader is not None:
            alert(game, en, f"within LDR {leader.ldr} of {leader.name}", "§5.6 condition 6")
            continue
        near = next((x for x in awake if game.distance(en.on_hex, x.on_hex) <= ALERT_NEIGHBOUR), None)
        if near is not None:
            alert(
                game,
                en,
                f"{near.name} is Alert {game.distance(en.on_hex, near.on_hex)} hexes away",
                "§5.6 condition 8",
            )


# ---------------------------------------------------------------------------
# Hiding (8.1)


def end_phase_hide(game: GameContext) -> None:
    """Step 5 b): a Spotted Friendly with Hide, in Cover, passing a TQC becomes Hidden (8.1).

    TQC: d10 <= effective TQ, natural 9 fails (C2 23.1). A Friendly without an
    order counts as on Hide (7.0). Cover: terrain, overlay, hexside feature or
    smoke (base-rules §5.4).
    """
    for f in game.state.active(Side.FRIENDLY):
        if not f.revealed or f.hex is None:
            continue
        if f.order is not None and f.order.order != "hide":
            continue
        if not game.in_cover(f):
            continue
        roll = game.dice.d10(f"TQC: {f.name} hides at {f.hex} (8.1)").total
        out = game.data.checks.resolve(CheckKind.TQC, roll, f.effective_tq)
        if out.passed:
            f.revealed = False
        game.emit(
            "hide",
            f"{f.name} on Hide in Cover at {f.hex}: TQC {roll} vs TQ {f.effective_tq} → "
            + ("passed: Hidden." if out.passed else "failed: stays Spotted."),
            rule="8.1; base-rules §1 Step 5 b)",
            actor=f.id,
            data={"roll": roll, "target": f.effective_tq, "passed": out.passed, "hex": str(f.hex)},
        )


def alert_around(game: GameContext, h: Hex | None, radius: int, reason: str, rule: str) -> None:
    """:func:`alert_near` around ``h``, if the hex is known (§5.6)."""
    if h is None:
        return
    alert_near(game, h, radius, reason, rule)


class _ImpulseTracker:
    """A ``game.listeners`` entry: remembers who was Known/Spotted at each Impulse start."""

    __slots__ = ("game", "impulse", "known", "turn")
    kinds = ("impulse",)
    """The only events it reads (:meth:`~solo.rules.context.GameContext.emit` skips the others)."""

    def __init__(self, game: GameContext) -> None:
        self.game = game
        self.turn = -1
        self.impulse = -1
        self.known: frozenset[str] = frozenset()

    def __call__(self, event: Event) -> None:
        if event.kind == "impulse":
            self.snapshot()

    def snapshot(self) -> None:
        st = self.game.state
        self.turn, self.impulse = st.flow.turn, st.flow.impulse
        self.known = frozenset(c.id for c in st.characters.values() if c.revealed)


def _tracker(game: GameContext) -> _ImpulseTracker:
    for listener in game.listeners:
        if isinstance(listener, _ImpulseTracker):
            return listener
    tracker = _ImpulseTracker(game)
    game.listeners.append(tracker)
    return tracker


def record_known_at_impulse_start(game: GameContext) -> None:
    """Remember who is Known (Enemy) or Spotted (Friendly) at the start of this Impulse (§10).

    Call before the Impulse-start spotting; calling it twice is harmless.
    """
    _tracker(game).snapshot()


def known_at_impulse_start(game: GameContext, ch: Character) -> bool:
    """Whether ``ch`` was Known/Spotted at the start of the current Impulse (Aimed Fire, §10)."""
    tracker = _tracker(game)
    flow = game.state.flow
    if tracker.turn == flow.turn and tracker.impulse == flow.impulse:
        return ch.id in tracker.known
    if not ch.revealed or tuple(ch.acted.get("revealed_at", ())) == (flow.turn, flow.impulse):
        return False
    for ev in reversed(game.events):  # no snapshot: read this Impulse's events back to its start
        if ev.kind == "impulse" or ev.turn != flow.turn or ev.impulse != flow.impulse:
            break
        if (ev.kind == "spot" and ev.data.get("success") and ev.data.get("target") == ch.id) or (
            ev.kind == "reveal" and ev.actor == ch.id
        ):
            return False
    return True


def _side_word(ch: Character) -> str:
    return "Spotted" if ch.side is Side.FRIENDLY else "Known"


def reveal(game: GameContext, ch: Character, *, reason: str, rule: str) -> bool:
    """Flip ``ch`` to Spotted (Friendly) or Known (Enemy); a dummy is removed instead (§3, §9.8).

    Returns True if anything changed. Records the Impulse in ``ch.acted["revealed_at"]``.
    """
    if ch.dummy:
        remove_dummy(game, ch, reason, rule)
        return True
    if ch.revealed:
        return False
    ch.revealed = True
    flow = game.state.flow
    ch.acted["revealed_at"] = (flow.turn, flow.impulse)
    game.emit(
        "reveal",
        f"{ch.name} is now {_side_word(ch)} ({reason}).",
        rule=rule,
        actor=ch.id,
        data={"character": ch.id, "reason": reason},
    )
    return True
