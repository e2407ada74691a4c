"""Burning vehicles, grenades in hatches and artillery against vehicles (C2 31.10.7, 31.10.8, 31.10.12).

May import: the vehicle hit rules (solo.rules.vehicles.targets and below) and the rooms below rules."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from solo.core.decisions import Decision, DecisionKind
from solo.core.hexes import Arc
from solo.data.tables import CheckKind, MoraleState
from solo.rules import morale
from solo.rules.context import GameContext
from solo.rules.state import Character, Side
from solo.rules.vehicles.hits import (
    _destroy,
    _Hit,
    _immobilize,
    _run_checks,
    _wound_occupant,
    hit_vehicle,
    report_text,
)
from solo.rules.vehicles.state import Vehicle, vehicles_of
from solo.rules.vehicles.targets import (
    FIRE_STARTED,
    HATCH_GRENADE_WOUNDS,
    HATCH_GRENADES,
    Ordnance,
    Strike,
    _buttoned,
    _crew,
    _hidden,
    _is_afv,
    _occupants,
    _vtype,
)


def end_phase_vehicle_fires(game: GameContext) -> None:
    """Turret/Engine Fire at the end of each turn after the one it started (C2 31.10.8): d10 0 out
    (crew +1 morale if below Normal), 1-7 burns on (an FMC for everyone aboard), 8-9 explodes
    (everyone aboard killed, the vehicle destroyed)."""
    started = game.state.flags.get(FIRE_STARTED, {})
    turn = game.state.flow.turn
    for v in vehicles_of(game.state).values():
        if not v.on_fire or v.destroyed or started.get(v.id, -1) >= turn:
            continue
        d10 = game.dice.d10(f"{v.name} burns: does it go out, burn on or explode? (C2 31.10.8)").total
        ctx = _Hit(game, v, Strike("fire", "fire", Ordnance.HE, None, None), {}, None)
        ctx.penetrated = True
        if d10 == 0:
            v.on_fire = False
            text = f"{v.name}: d10 0, the fire goes out."
            for c in _occupants(game, v):
                if c.morale.rank > MoraleState.NORMAL.rank:
                    morale.change_morale(game, c, 1, MoraleState.NORMAL, "the fire is out", "C2 31.10.8")
        elif d10 <= 7:
            text = f"{v.name}: d10 {d10}, the fire burns on; Fire Morale Checks for everyone aboard."
            for c in _occupants(game, v):
                ctx.checks.append((c.id, "fmc", "the vehicle burns on"))
            _run_checks(ctx)
        else:
            text = f"{v.name}: d10 {d10}, the vehicle explodes; everyone aboard is killed."
            _destroy(ctx, "the vehicle explodes")
        game.emit(
            "vehicle_fire_phase",
            text,
            rule="C2 31.10.8",
            data={"vehicle": v.id, "roll": d10, "report": ctx.report},
        )


HATCH_GRENADE_START = "hatch_grenade_start"
"""``state.flags`` key: ``{"turn": n, "at": {character id: [AFV ids]}}``, the men on foot who began
turn ``n`` in the hex of an opposing AFV (C2 31.10.7 "starts a Turn in the same hex")."""


def note_turn_start(game: GameContext) -> None:
    """At the start of a turn, record who is on foot in the hex of an active AFV of the other side
    (:data:`HATCH_GRENADE_START`; C2 31.10.7)."""
    at: dict[str, list[str]] = {}
    for v in vehicles_of(game.state).values():
        if not v.is_active or not _is_afv(_vtype(game, v)):
            continue
        for c in game.state.at(v.on_hex):
            if c.vehicle is None and c.is_active and not c.dummy and c.side is not v.side:
                at.setdefault(c.id, []).append(v.id)
    if at:
        game.state.flags[HATCH_GRENADE_START] = {"turn": game.state.flow.turn, "at": at}
    else:
        game.state.flags.pop(HATCH_GRENADE_START, None)


def hatch_places(game: GameContext, vehicle: Vehicle) -> list[str]:
    """The crew positions of an AFV a grenade may be dropped into: each with a hatch, open or
    closed, that is not jammed (C2 31.10.7). Display order; empty for other vehicles."""
    vt = _vtype(game, vehicle)
    if not _is_afv(vt):
        return []
    return [p.id for p in vt.crew if p.hatch and not vehicle.seats[p.id].hatch.is_jammed]


def hatch_grenade_targets(game: GameContext, ch: Character) -> list[tuple[Vehicle, list[str]]]:
    """The AFVs ``ch`` may drop a grenade into now, with their positions (C2 31.10.7): opposing
    AFVs whose hex he began the turn in (:func:`note_turn_start`) and still shares, with at least
    one hatch that is not jammed. Scenario order."""
    rec = game.state.flags.get(HATCH_GRENADE_START)
    if ch.hex is None or ch.vehicle is not None or not rec or rec.get("turn") != game.state.flow.turn:
        return []
    vehicles = vehicles_of(game.state)
    out: list[tuple[Vehicle, list[str]]] = []
    for vid in rec["at"].get(ch.id, ()):
        v = vehicles.get(vid)
        if v is None or not v.is_active or v.hex != ch.hex:
            continue
        places = hatch_places(game, v)
        if places:
            out.append((v, places))
    return out


def hatch_grenade_step(game: GameContext, ch: Character) -> Generator[Decision, str, bool]:
    """The Impulse 3 F step of a Grenade order in an opposing AFV's hex (C2 31.10.7).

    When :func:`hatch_grenade_targets` gives an AFV, a Friendly is asked (``ORDER_TARGET``;
    keys ``hatch:<vehicle id>:<position>`` or ``throw``, to throw as ordered); an Enemy drops
    it into the first such AFV at a random position. Returns True when he tried the hatch
    (:func:`drop_grenade_in_hatch`), False when the grenade is to be thrown as usual.
    """
    targets = hatch_grenade_targets(game, ch)
    if not targets:
        return False
    if ch.side is Side.FRIENDLY:
        options = [
            (f"hatch:{v.id}:{p}", f"Drop it into {v.name}'s {p.replace('_', ' ')} hatch (a TQC)")
            for v, places in targets
            for p in places
        ]
        options.append(("throw", "Throw it as ordered"))
        key = yield game.decision(
            DecisionKind.ORDER_TARGET,
            f"{ch.name} (Grenade) began the turn in {targets[0][0].name}'s hex: drop it down a hatch? "
            "(C2 31.10.7)",
            options,
            actor=ch.id,
        )
        if key == "throw":
            return False
        _, vid, place = key.split(":")
        drop_grenade_in_hatch(game, ch, vehicles_of(game.state)[vid], place=place)
        return True
    drop_grenade_in_hatch(game, ch, targets[0][0])
    return True


def drop_grenade_in_hatch(
    game: GameContext, ch: Character, vehicle: Vehicle, place: str | None = None
) -> bool:
    """Impulse 3: ``ch`` (with a Grenade order, in the AFV's hex since the turn began) tries to drop a
    grenade through a hatch (C2 31.10.7): a TQC; success puts it on a crew position without a
    jammed hatch: ``place`` when given (the player's pick), else an Enemy picks at random ("Enemy
    Characters will select a random Crew position") and a Friendly takes the first open one, else
    the first [house]. It explodes in the End Phase (:func:`hatch_grenades_explode`). Returns True
    on success; False (no roll) when the AFV is elsewhere or has no usable hatch, or ``place``
    is not one."""
    if ch.hex is None or vehicle.hex != ch.hex or not vehicle.is_active:
        return False
    places = hatch_places(game, vehicle)
    if not places or (place is not None and place not in places):
        return False
    tqc = morale.check(
        game, ch, CheckKind.TQC, purpose=f"drop a grenade into {vehicle.name}'s hatch (C2 31.10.7)"
    )
    if not tqc.passed:
        game.emit(
            "hatch_grenade",
            f"{ch.name} fails to drop a grenade into {vehicle.name}.",
            rule="C2 31.10.7",
            actor=ch.id,
            data={"vehicle": vehicle.id, "roll": tqc.roll},
        )
        return False
    if place is not None:
        pass
    elif ch.side is Side.ENEMY:
        place = places[game.dice.choice(places, f"{ch.name}: which hatch? (C2 31.10.7)").index]
    else:
        opened = [p for p in places if vehicle.seats[p].hatch.is_open]
        place = (opened or places)[0]
    game.state.flags.setdefault(HATCH_GRENADES, []).append(
        {"vehicle": vehicle.id, "position": place, "thrower": ch.id, "turn": game.state.flow.turn}
    )
    game.emit(
        "hatch_grenade",
        f"{ch.name} drops a grenade through {vehicle.name}'s {place.replace('_', ' ')} hatch.",
        rule="C2 31.10.7",
        actor=ch.id,
        data={"vehicle": vehicle.id, "position": place},
    )
    return True


def hatch_grenades_explode(game: GameContext) -> None:
    """End Phase: for each grenade dropped into an AFV this turn every crewman aboard draws 3 wound
    cards (C2 31.10.7 "each crew member will draw 3 wound cards"; option ``hatch_grenade_wounds``
    ``at_the_hatch``: only the man at the hatch it went down)."""
    pending = game.state.flags.pop(HATCH_GRENADES, [])
    for rec in pending:
        v = vehicles_of(game.state).get(rec["vehicle"])
        if v is None:
            continue
        thrower = game.state.characters.get(rec.get("thrower") or "")
        ctx = _Hit(game, v, Strike("hand_grenade", "grenade", Ordnance.HE, None, None), {}, thrower)
        ctx.penetrated = True
        at_hatch = game.options.hatch_grenade_wounds == "at_the_hatch"
        for c in _crew(game, v):
            if at_hatch and c.seat != rec.get("position"):
                continue
            _wound_occupant(ctx, c, HATCH_GRENADE_WOUNDS, "a grenade inside the AFV")
        _run_checks(ctx)
        game.emit(
            "hatch_grenade",
            f"The grenade inside {v.name} explodes: "
            + ("the man at that hatch draws" if at_hatch else "every crewman draws")
            + f" {HATCH_GRENADE_WOUNDS} wound cards.",
            rule="C2 31.10.7",
            data={"vehicle": v.id, "report": ctx.report},
        )


ARTILLERY_VS_AFV: tuple[tuple[int, int, str], ...] = (
    (0, 0, "hit"),
    (1, 2, "track"),
    (3, 5, "exposed"),
    (6, 9, "none"),
)
"""[house] Indirect Fire vs AFV (31.10.12): d10 0 a hit on the rear deck, 1-2 tracks (75mm+
shells immobilize), 3-5 a wound card for every crewman at an open hatch, 6-9 no effect."""


ARTILLERY_VS_SOFT: tuple[tuple[int, int, str], ...] = (
    (0, 1, "hit"),
    (2, 4, "wound"),
    (5, 7, "mc"),
    (8, 9, "none"),
)
"""[house] Indirect Fire vs Half-Track / Truck / Jeep (31.10.12): d10 0-1 a hit (side aspect),
2-4 a wound card for one occupant at random, 5-7 an MC for every occupant, 8-9 no effect."""


def artillery_hits_vehicle(game: GameContext, vehicle: Vehicle, calibre: str) -> dict[str, Any]:
    """Artillery or mortar fire lands on ``vehicle``'s hex (or next to it for 105mm) (C2 31.10.12).

    d10 on the house Indirect Fire table of its kind (:data:`ARTILLERY_VS_AFV`,
    :data:`ARTILLERY_VS_SOFT`); a "hit" is an HE hit of that calibre (penetration 1+1d6 [house]).
    Emits one ``vehicle_artillery`` event and returns its report.
    """
    vt = _vtype(game, vehicle)
    digits = "".join(ch for ch in calibre if ch.isdigit())
    mm = int(digits) if digits else 75
    d10 = game.dice.d10(f"{calibre} lands on {vehicle.name} (C2 31.10.12)").total
    table = ARTILLERY_VS_AFV if _is_afv(vt) else ARTILLERY_VS_SOFT
    result = next(r for lo, hi, r in table if lo <= d10 <= hi)
    strike = Strike(calibre, f"{calibre} shell", Ordnance.HE, mm, "1+1d6")
    report: dict[str, Any] = {"vehicle": vehicle.id, "calibre": calibre, "roll": d10, "result": result}
    ctx = _Hit(game, vehicle, strike, report, None)
    if result == "hit":
        report["hit"] = hit_vehicle(
            game, vehicle, strike, from_hex=None, aspect=Arc.REAR if _is_afv(vt) else Arc.SIDE
        )
    elif result == "track":
        if mm >= 75:
            _immobilize(ctx, "shell on the tracks")
    elif result == "exposed":
        for c in _crew(game, vehicle):
            if not _buttoned(game, vehicle, c) and not _hidden(c):
                _wound_occupant(ctx, c, 1, f"{calibre} shell burst")
    elif result == "wound":
        people = _occupants(game, vehicle)
        if people:
            victim = people[game.dice.choice([c.name for c in people], f"{calibre}: who is hit?").index]
            _wound_occupant(ctx, victim, 1, f"{calibre} shell burst")
    elif result == "mc":
        for c in _occupants(game, vehicle):
            ctx.checks.append((c.id, "mc", f"{calibre} shell burst"))
    ctx.penetrated = True
    _run_checks(ctx)
    game.emit(
        "vehicle_artillery",
        f"A {calibre} shell lands on {vehicle.name}: d10 {d10}, {result}."
        + (" " + report_text(report["hit"]) if "hit" in report else ""),
        rule="C2 31.10.12 [house tables]",
        data=report,
    )
    return report
