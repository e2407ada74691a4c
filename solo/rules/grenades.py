"""Grenades and smoke grenades (base-rules §12): the throw and its Grenade Check, and the explosions of
grenades and C4 in the End Phase (Step 5 a), §14).

May import: the artillery, smoke and terrain fire rules below it, and the rooms below rules."""

from __future__ import annotations

from typing import Any

from solo.core.hexes import Hex
from solo.data.orders import Order
from solo.data.tables import roll_result
from solo.data.weapons import WeaponKind
from solo.rules.artillery import (
    BLAST_ALERT_RANGE,
    C4_EXPLODES_ON,
    _blast_morale,
    _explode_shell,
    _in_the_open,
)
from solo.rules.context import GameContext
from solo.rules.effects import (
    BUILDING_CAP_ROWS,
    NO_CAP_ROWS,
    _alert_near,
    _hex_of,
    _morale_check,
    _on_board,
    _reveal,
    _roster_index,
    _turn,
    _wound,
)
from solo.rules.smoke import place_smoke
from solo.rules.state import Character, Side

GRENADE_RANGE: tuple[int, int] = (1, 3)
"""Hand and smoke grenades are thrown 1-3 hexes (base-rules §12 step 2) [reconstructed]."""


RIFLE_GRENADE_RANGE: tuple[int, int] = (5, 12)
"""An M7 rifle grenade is fired at 5-12 hexes (base-rules §12) [house, from the reconstruction]."""


GRENADE_DEFAULT_WS = 2
"""Grenade WS of a man whose counter shows none (base-rules §12 step 9, §20 Q18) [house]."""


_THROWN_ORDERS = ("grenade", "smoke_grenade", "rifle_grenade")


def _throw_range(order_id: str) -> tuple[int, int]:
    return RIFLE_GRENADE_RANGE if order_id == "rifle_grenade" else GRENADE_RANGE


def _carried(game: GameContext, ch: Character, kind: WeaponKind) -> tuple[int, str] | None:
    for w in ch.weapons:
        if w.weapon in game.data.weapons and game.data.weapons.get(w.weapon).kind is kind:
            return w.ws, w.weapon
    return None


def _throw_problem(game: GameContext, ch: Character, h: Hex | None, lo: int, hi: int) -> str | None:
    if h is None or not _on_board(game, h):
        return "no target hex"
    d = game.distance(ch.on_hex, h)
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
    at = game.mark()  # the throw is narrated first, then the reveal and its dice
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
        at=at,
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
        if c.revealed and lo <= game.distance(ch.on_hex, c.on_hex) <= hi and game.sees(ch, c)
    ]
    return min(cands, key=lambda c: (game.distance(ch.on_hex, c.on_hex), rank[c.id]), default=None)


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
    h = c.on_hex
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
