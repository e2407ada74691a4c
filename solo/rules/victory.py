"""Victory (base-rules §19; C2 23.3 capture): victory points, the bands, objectives and exits, the
result at the end.

May import: the rules below it and the rooms below rules."""

from __future__ import annotations

from typing import Any

from solo.core.hexes import Hex
from solo.rules.context import GameContext
from solo.rules.state import Side, Status

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
            min_vp: int = band.min_vp
            return min_vp
    return VP_TO_WIN


def final_victory(game: GameContext) -> None:
    """The victory check at the end of the game (base-rules §19 [reconstructed]; C2 23.3–23.4).

    First, incapacitated Friendlies with no active Friendly within 2 hexes are captured (C2
    23.3; the scenario's ``prisoners`` section may turn this off or change the range). Then
    the Friendly VP: + per Enemy killed or routed off (a leader, LDR 1+, more), + per Enemy
    prisoner (guarded: an active Friendly in his hex, if the scenario asks, C2 23.4), + held
    objectives and exits; - per Friendly killed, - per Friendly incapacitated or captured, - per
    Enemy who left by an Enemy exit (§19 special rules; counted as VP the Enemy gains).
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
                f
                for f in st.active(Side.FRIENDLY)
                if f.id != c.id and game.distance(f.on_hex, c.on_hex) <= reach
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
    # §19 special rules: an Enemy exit gives the Enemy its VP for each Enemy (not a dummy) gone by it.
    enemy_exits = [e for e in values["exits"] if getattr(e, "side", Side.FRIENDLY) is Side.ENEMY]
    enemy_exited = [c for c in enemies if c.status is Status.EXITED and c.hex is None and not c.dummy]
    if enemy_exits:
        losses += enemy_exits[0].vp * len(enemy_exited)
    score = gained - losses
    st.vp = {"friendly": score, "enemy": losses}
    st.winner = "friendly" if score >= _win_threshold(values) else "enemy"
    band = values["result"](score) if values["result"] is not None else vp_band(score)
    game.emit(
        "victory",
        f"Victory points: +{gained} for {len(kills)} Enemy casualties, {len(prisoners)} prisoner(s)"
        + (f", objectives {', '.join(held)}" if held else "")
        + (f", {len(exited)} exited" if exit_specs and exited else "")
        + f"; -{losses} for Friendly losses ({len(dead)} killed, {len(lost)} incapacitated or captured"
        + (f", {len(enemy_exited)} Enemy exited" if enemy_exits and enemy_exited else "")
        + "): "
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
            **({"enemy_exited": [c.id for c in enemy_exited]} if enemy_exits else {}),
        },
    )
