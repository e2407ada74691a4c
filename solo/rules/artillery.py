"""Off-board artillery and mortars, and explosions of shells and C4 (base-rules §14; C2 31.10.12 against
vehicles).

May import: the smoke, terrain fire and vehicle rules below it, and the rooms below rules."""

from __future__ import annotations

from typing import Any

import attrs

from solo.core.hexes import Hex
from solo.data.tables import roll_result
from solo.data.vehicle_types import VehicleKind
from solo.rules.context import GameContext
from solo.rules.effects import _alert_near, _morale_check, _reveal, _turn, _within, _wound
from solo.rules.entering import FORTIFIED
from solo.rules.smoke import place_smoke
from solo.rules.state import Character, Side
from solo.rules.terrain_fire import kindle

BLAST_ALERT_RANGE = 5
"""Alert condition 5: an explosion within 5 hexes (base-rules §5.6) [reconstructed]."""


@attrs.frozen
class Shell:
    """A calibre's effect: power in the hex and adjacent (``tq_minus_power``) and scatter ``k``."""

    power_hex: int
    power_adjacent: int
    scatter_k: int
    """A round scatters max(0, d6 - k) hexes (base-rules §14)."""


SHELLS: dict[str, Shell] = {
    "60mm": Shell(3, 2, 2),
    "81mm": Shell(4, 2, 1),
    "105mm": Shell(5, 3, 0),
    "c4": Shell(3, 3, 0),
}
"""Power (hex/adjacent) and scatter of each calibre, and of C4 (base-rules §14) [house approximation]."""


VEHICLE_TABLES_ADJACENT: tuple[str, ...] = ("105mm",)
"""Calibres whose rounds also roll on the Indirect Fire vs vehicle tables for a vehicle in a hex
adjacent to the impact (C2 31.10.12 "for 105mm fire ... a hex adjacent to a vehicle")."""

C4_EXPLODES_ON = 2
"""C4 explodes in Step 5 from the turn after it is set on d10 0-2, always by the end (§14)."""


def call_support_fire(game: GameContext, calibre: str, rounds: str, *, target_side: Side, cause: str) -> int:
    """Off-board fire at ``target_side``'s target table (base-rules §14); returns the rounds placed.

    Rounds: a d6 or a d10 (0 = none), or a fixed number (``"3"``, a scenario barrage). Each
    round: d10 on the target table, then scatter d6 in direction and max(0, d6 - k) hexes; a round
    scattered off the map is lost. The rounds are pending shells that explode in Step 5 a).
    """
    shell = SHELLS[calibre]
    purpose = f"rounds of {calibre} ({cause})"
    # A d10 reads 0-9: a 0 means no round (base-rules §14); a scenario may fix the number.
    if rounds.isdigit():
        n = int(rounds)
    else:
        n = game.dice.d6(purpose).total if rounds == "d6" else game.dice.d10(purpose).total
    table = target_table(game, target_side)
    game.emit(
        "artillery",
        f"{n} round(s) of {calibre} on the {target_side.value} target table ({cause}).",
        rule="14",
        data={"calibre": calibre, "rounds": n},
    )
    if not table:
        return 0
    placed = 0
    for i in range(n):
        face = game.dice.d10(f"{calibre} round {i + 1}: target hex").total
        aim = table[face]
        direction = game.dice.d6(f"{calibre} round {i + 1}: scatter direction").total
        dist = max(0, game.dice.d6(f"{calibre} round {i + 1}: scatter distance").total - shell.scatter_k)
        h: Hex | None = aim
        for _ in range(dist):
            h = game.board.neighbour_hex(h, direction) if h is not None else None
        if h is None:
            game.emit(
                "artillery",
                f"Round {i + 1} aimed at {aim} scatters {dist} hex(es) toward {direction}, off the map.",
                rule="14",
                data={"aim": str(aim), "direction": direction, "distance": dist},
            )
            continue
        game.state.markers.grenades.append(
            {"kind": "shell", "calibre": calibre, "hex": str(h), "thrower": None, "turn": _turn(game)}
        )
        placed += 1
        game.emit(
            "artillery",
            f"Round {i + 1} aimed at {aim} (roll {face}) scatters {dist} hex(es) toward {direction}: "
            f"it lands on {h} and explodes in the End Phase.",
            rule="14",
            data={"aim": str(aim), "roll": face, "direction": direction, "distance": dist, "hex": str(h)},
        )
    return placed


def scenario_barrages(game: GameContext) -> int:
    """§14 special rules: the scenario's barrages timed for this turn, called at its start (the
    ``barrages`` key; rounds aimed, scattered and exploding in Step 5 a) as support fire).
    Returns the rounds placed."""
    turn = game.state.flow.turn
    placed = 0
    for b in getattr(game.scenario, "barrages", ()):
        if b.turn == turn:
            placed += call_support_fire(
                game, b.calibre, b.rounds, target_side=b.at, cause=f"the scenario's barrage of turn {turn}"
            )
    return placed


def place_c4(game: GameContext) -> list[str]:
    """§14 special rules: each C4 carrier of the scenario (``c4: carriers, hexes``) who starts the End
    Phase active in one of its hexes, with no active opponent there, sets his one charge; it
    explodes in Step 5 from the next turn on d10 0-2, always on the last turn
    (:func:`solo.rules.grenades.end_phase_explosions`). Returns the carriers who set one."""
    spec = getattr(game.scenario, "c4", None)
    if spec is None:
        return []
    st = game.state
    used: list[str] = st.flags.setdefault("c4_set", [])
    targets = spec.hexes.split()
    out: list[str] = []
    for cid in spec.carriers:
        ch = st.characters.get(cid)
        if ch is None or cid in used or not ch.is_active or ch.hex is None or str(ch.hex) not in targets:
            continue
        if any(c.side is not ch.side and c.is_active for c in st.at(ch.hex)):
            continue
        used.append(cid)
        out.append(cid)
        st.markers.grenades.append({"kind": "c4", "hex": str(ch.hex), "thrower": cid, "turn": _turn(game)})
        game.emit(
            "c4_set",
            f"{ch.name} sets his C4 charge on {ch.hex}: from next turn it goes off in the End Phase on a "
            f"d10 of 0-{C4_EXPLODES_ON}, and surely on the last turn (§14).",
            rule="14",
            actor=cid,
            data={"hex": str(ch.hex)},
        )
    return out


def _explode_shell(game: GameContext, rec: dict[str, Any]) -> None:
    """A shell (or C4) explodes: the ``tq_minus_power`` damage model, blast MCs, kindling (C2 29.1),
    alert 5 and Smoke next turn (base-rules §14, §13)."""
    st = game.state
    h = Hex.parse(rec["hex"])
    calibre = rec.get("calibre", "c4")
    shell = SHELLS[calibre]
    what = "C4" if calibre == "c4" else f"a {calibre} round"
    game.emit(
        "explosion",
        f"{what.capitalize()} explodes on {h}.",
        rule="14",
        data={"hex": str(h), "calibre": calibre},
    )
    for c in st.at(h):
        _reveal(game, c, f"{what} explodes in his hex", "14")
    hurt: list[str] = []
    area = [(x, shell.power_hex if x == h else shell.power_adjacent) for x in _within(game, h, 1)]
    for x, power in area:
        for c in st.at(x):
            if c.dummy or not c.on_map or not _in_the_open(game, c):
                continue
            target = c.effective_tq - power
            face = game.dice.d10(f"{what} on {h}: {c.name} (TQ {c.effective_tq} - power {power})").total
            safe = roll_result(face, target).passed
            game.emit(
                "blast",
                f"{c.name} on {x}: {face} against TQ {c.effective_tq} - power {power} = {target}: "
                + ("unharmed." if safe else "a wound draw."),
                rule="14 [house tq_minus_power]",
                actor=c.id,
                data={"roll": face, "target": target, "power": power, "hex": str(x)},
            )
            if not safe:
                hurt.append(c.id)
                _wound(game, c, cause=f"{what} on {h}", rule="14")
    _blast_morale(game, h, hurt, what)
    if st.vehicles and calibre != "c4":
        from solo.rules.vehicles.hazards import artillery_hits_vehicle

        reach = set(_within(game, h, 1)) if calibre in VEHICLE_TABLES_ADJACENT else {h}
        for v in list(st.vehicles.values()):  # scenario order
            if v.hex in reach and v.is_active:
                artillery_hits_vehicle(game, v, calibre)  # C2 31.10.12
    kindle(game, h, cause=what)  # C2 29.1 reads the terrain the round hit: the Building's kindling
    becomes_rubble(game, h, what)
    _alert_near(game, h, BLAST_ALERT_RANGE, f"{what} explodes on {h}", "5.6 #5")
    place_smoke(game, h, "smoke", cause=f"{what} explodes", rule="13")


def becomes_rubble(game: GameContext, h: Hex, what: str) -> str | None:
    """A Building hit becomes Rubble (base-rules §14, rulebook 11.14): after a shell or C4 explodes
    on ``h`` (its damage, Blast MCs, vehicles and C2 29.1 kindling done), a hex whose terrain has
    ``hit_becomes`` (``cards/terrain.yaml``: building → rubble) takes that terrain for the rest of
    this game [house: every round of every calibre and C4; a Fortified Building marker (C2 27.2)
    keeps its Building standing; overlays and hexside features stay]. Returns the new terrain id,
    or None if the hex stays as it is."""
    board = game.board
    terrain = board.terrain_of(h)
    if terrain.hit_becomes is None or any(o.id == FORTIFIED for o in board.overlays_of(h)):
        return None
    game.change_terrain(h, terrain.hit_becomes)
    after = game.board.terrain_of(h)
    game.emit(
        "terrain_change",
        f"{what.capitalize()} hits the {terrain.name} on {h}: it becomes {after.name} (§14).",
        rule="14; 11.14",
        data={"hex": str(h), "before": terrain.id, "after": after.id},
    )
    return after.id


def target_table(game: GameContext, side: Side) -> list[Hex]:
    """The 10-hex target table (d10 face → hex) for fire on ``side`` (base-rules §14, §19).

    A scenario may give ``target_tables: {friendly: [10 hexes], enemy: [...]}``; otherwise
    [house] the hexes of ``side``'s on-map characters (dummies included, roster order, each
    once) repeat to fill the ten faces. Empty if ``side`` has nobody on the map.
    """
    given = getattr(game.scenario, "target_tables", None)
    if isinstance(given, dict) and given.get(side.value):
        hexes = given[side.value]
        hexes = hexes.split() if isinstance(hexes, str) else hexes
        return [Hex.parse(x) if isinstance(x, str) else x for x in hexes][:10]
    hexes = list(dict.fromkeys(c.hex for c in game.state.active(side)))
    if not hexes:
        return []
    return [hexes[i % len(hexes)] for i in range(10)]


def _in_the_open(game: GameContext, c: Character) -> bool:
    """Whether blasts and fragments reach ``c``: on foot, or riding a Jeep or Truck.

    Men inside an AFV or Half-Track are hit through the vehicle instead (C2 31.10.7, 31.10.12).
    """
    if c.vehicle is None:
        return True
    v = game.state.vehicles.get(c.vehicle)
    if v is None:
        return True
    kind: VehicleKind = game.data.vehicles.get(v.type).kind
    return kind.is_wheeled


def _blast_morale(game: GameContext, h: Hex, hit: list[str], what: str) -> None:
    """Blast MC for everyone in the hex or adjacent (§12 step 6); with ``blast_mc_only_if_unhurt``
    those in the hex who were hit take none."""
    st = game.state
    only_unhurt = game.options.blast_mc_only_if_unhurt
    for x in _within(game, h, 1):
        for c in st.at(x):
            if not c.is_active or c.dummy or not _in_the_open(game, c):
                continue
            if only_unhurt and x == h and c.id in hit:
                continue
            _morale_check(game, c, cause=f"blast of {what} on {h}", rule="12 step 6")
