"""Fire in terrain (C2 29.1-29.5): starting, kindling, growing, spreading and putting out fires, and
their smoke.

May import: solo.rules.smoke and the rules below it, and the rooms below rules."""

from __future__ import annotations

from solo.core.hexes import Hex
from solo.rules.context import GameContext
from solo.rules.effects import _on_board, _turn, _wound
from solo.rules.smoke import FIRE_SMOKE_MARKERS, _project, _smoke_records, place_smoke, sync_los

HEAVY_RAIN_FIRE_MODIFIER = 1
"""Added to kindling and spread rolls in Heavy Rain (C2 29.2, 29.4)."""


RAGING_FIRE_NEVER_GOES_OUT = True
"""[house] A Raging Fire rolls for spread instead of growth (C2 29.4), so no 9 puts it out:
it burns to the end of the battle (C2 29.3 "stays that way"). Informative; not switchable."""


def _fire_value(game: GameContext, h: Hex, what: str) -> int | None:
    """The best kindling/growth/spread value among ``h``'s terrain and overlays (None: does not burn)."""
    values = [getattr(t, what) for t in (game.board.terrain_of(h), *game.board.overlays_of(h))]
    values = [v for v in values if v is not None]
    return max(values) if values else None


def start_fire(game: GameContext, h: Hex, *, cause: str, rule: str = "C2 29.2") -> None:
    """Place a Fire marker on ``h`` (started this turn: no damage, growth or smoke this turn, C2 29.2).

    Keeps the growth value of the terrain burning now (``flags["fire_growth"]``, hex text → int or
    None): C2 29.3 growth reads the terrain where the fire started, even once it is Rubble (14)."""
    m = game.state.markers
    if h in m.fire or not _on_board(game, h):
        return
    m.fire[h] = "fire"
    m.fire_started[h] = _turn(game)
    game.state.flags.setdefault("fire_smoke_count", {})[str(h)] = 0
    # C2 29.3 growth reads "the terrain where the attack occurred": kept now, before a shell
    # turns the Building to Rubble (14), so the fire grows on the Building's value.
    game.state.flags.setdefault("fire_growth", {})[str(h)] = _fire_value(game, h, "growth")
    sync_los(game, h)
    game.emit(
        "burning",
        f"A Fire starts on {h} ({cause}); nobody may enter it and it blocks LOS.",
        rule=rule,
        data={"hex": str(h), "cause": cause},
    )


def scenario_fires(game: GameContext) -> list[Hex]:
    """Start the scenario's fires (``fires:``, C2 29.0 scenario-specific rule) at set-up, in the
    order written; returns their hexes. Started before turn 1, each wounds, smokes and rolls for
    growth from the end of turn 1 (C2 29.2-29.3). No die is rolled."""
    text = getattr(game.scenario, "fires", "") or ""
    hexes = [Hex.parse(t) for t in text.split()]
    for h in hexes:
        start_fire(game, h, cause="the scenario", rule="C2 29.0")
    return hexes


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
    st.flags.get("fire_growth", {}).pop(str(h), None)
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
    kept = st.flags.get("fire_growth", {})
    growth = kept[str(h)] if str(h) in kept else _fire_value(game, h, "growth")  # C2 29.3
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
