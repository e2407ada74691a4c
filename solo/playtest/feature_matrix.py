"""Which Combat!2 features each shipped scenario uses, read from the scenario data (issue 13).

A designer's check that the shipped scenarios, between them, use every Combat!2 feature the engine
implements: Elite SS (C2 24), skills (C2 24.1), the new characters and weapons (C2 25-26), the new
terrain of C2 27 within reach of the fight, weather and ground (C2 28), fire (C2 29), trained
medics (C2 30), each vehicle kind on each side (C2 31), bazooka and Panzerfausts (C2 32), night
(§15), large battles (9.2), optional Enemy activation (C2 23.5), barrages and C4 (§14) and
minefields (C2 31.5). Nothing is played: every answer comes from the files, so a feature that only
*may* happen (a fire kindled by a barrage) is counted where the scenario sets up its cause.

``scenario_features(sc, data)`` gives the feature keys of one scenario; ``feature_matrix`` the
whole table; ``FEATURES`` lists every key in print order. Run it as ``tools/feature_matrix``.

May import: :mod:`solo.data` and :mod:`solo.core`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import attrs

from solo.core.errors import GeometryError
from solo.core.hexes import Hex, distance
from solo.data.characters import CharacterBook, CounterProfile, FriendlyProfile, WeaponSpec
from solo.data.house import HouseData
from solo.data.maps import MapDef
from solo.data.scenario_format import CharacterSpec, Ground, Scenario, TeamRoll, TeamSpec, Weather

REACH = 6
"""Hexes: C2 27 terrain counts when it lies within this distance of a set-up, entry, vehicle,
objective or exit hex of the scenario (the ground the fight is about)."""

SKILLS = (
    "tough",
    "medic",
    "eagle_eyes",
    "sniper",
    "dodge",
    "dodge_2",
    "knife_expert",
    "deadly",
    "winter_camouflage",
    "drive",
)
C2_WEAPONS = ("thompson", "m1903", "m2_50cal", "stg44")
"""The new small arms of C2 26.0 (the M2 .50 only on the M3A1 or the Jeep)."""
VEHICLE_KINDS = ("jeep", "truck", "half_track", "afv")
SIDES = ("friendly", "enemy")
TERRAIN_FEATURES: tuple[tuple[str, str], ...] = (
    ("C2 27.1 fountain", "fountain"),
    ("C2 27.2 fortified building", "fortified_building"),
    ("C2 27.3 bocage", "bocage"),
    ("C2 27.4 trench", "trench"),
    ("C2 27.5 abbey", "abbey_exterior"),
    ("C2 27.6 foxhole in trees", "foxhole"),
    ("C2 27.7 barbed wire", "barbed_wire"),
    ("C2 27.8 depression, stream or crater", "depression"),
    ("C2 27.8 logs or long grass (S)", "logs"),
    ("C2 27.8 fields small in summer", "field"),
)

FEATURES: tuple[str, ...] = (
    "C2 24 Elite SS",
    *(f"C2 24.1 skill {s} ({side})" for s in SKILLS for side in SIDES),
    "C2 25 squad rolled on the selection table",
    "C2 25 Charlie team",
    "C2 25 COM team",
    *(f"C2 26 {w}" for w in C2_WEAPONS),
    *(name for name, _ in TERRAIN_FEATURES),
    "C2 27.9 wreck as terrain",
    *(f"C2 28.1 weather {w.value}" for w in Weather),
    *(f"C2 28.2 ground {g.value}" for g in Ground),
    "C2 29 fire (a scheduled barrage may kindle it)",
    "C2 29.0 fire set by the scenario (fires:)",
    "C2 30 trained medic",
    *(f"C2 31 {kind} ({side})" for kind in VEHICLE_KINDS for side in SIDES),
    "C2 31.5 minefields",
    "C2 31.11.1 road orders",
    "C2 32.1 bazooka",
    *(f"C2 32.3 Panzerfaust level {n}" for n in (1, 2, 3, 4)),
    "C2 32.3 panzerfaust_60",
    "C2 32.3 panzerfaust_100",
    "§15 night",
    "9.2 large battle",
    "C2 23.5 optional Enemy activation",
    "§14 barrage",
    "§14 C4",
    "§18 event reinforcements",
)
"""Every feature key, in print order."""


@attrs.frozen
class Man:
    """One man a scenario may put in play, with what he carries (``side``: friendly | enemy)."""

    side: str
    weapons: tuple[str, ...]
    skills: tuple[str, ...]
    trained_medic: bool


def _man(side: str, p: FriendlyProfile | CounterProfile) -> Man:
    return Man(side, tuple(w.weapon for w in p.weapons), tuple(str(s) for s in p.skills), p.trained_medic)


def _profile_man(side: str, spec: CharacterSpec, book: CharacterBook, *, elite: bool) -> Man:
    """``spec`` with its profile or counter filled in (the spec's own values win)."""
    base: FriendlyProfile | CounterProfile | None = None
    if spec.profile:
        base = book.profile(spec.profile)
    elif spec.counter is not None:
        base = book.counter(spec.counter, elite=elite)
    weapons: tuple[WeaponSpec, ...] = spec.weapons or (base.weapons if base else ())
    skills = spec.skills or (base.skills if base else ())
    medic = spec.trained_medic or bool(base and base.trained_medic)
    return Man(side, tuple(w.weapon for w in weapons), tuple(str(s) for s in skills), medic)


def _counter_men(side: str, counters: Iterable[int], book: CharacterBook, *, elite: bool) -> Iterator[Man]:
    for n in counters:
        p = book.counter(n, elite=elite)
        if p is not None:
            yield Man(
                side, tuple(w.weapon for w in p.weapons), tuple(str(s) for s in p.skills), p.trained_medic
            )


def _team_men(side: str, team: TeamSpec, sc: Scenario, book: CharacterBook) -> Iterator[Man]:
    elite = sc.elite if team.elite is None else team.elite
    for spec in team.characters:
        yield _profile_man(side, spec, book, elite=elite)
    for cup in team.cup:
        yield from _counter_men(side, cup.counters, book, elite=elite)
    if team.roll is TeamRoll.CHARACTER_SELECTION:
        ids = sorted({i for row in book.selection_table.rows for i in row.members(team.id)})
        for i in ids:
            p = book.profile(i)
            if p is not None:
                yield Man(
                    side, tuple(w.weapon for w in p.weapons), tuple(str(s) for s in p.skills), p.trained_medic
                )


def scenario_men(sc: Scenario, book: CharacterBook) -> list[Man]:
    """Every man the scenario may put in play: its teams, cups, selection rolls and waves."""
    men: list[Man] = []
    for side, teams in (("friendly", sc.friendly), ("enemy", sc.enemy)):
        for team in teams:
            men.extend(_team_men(side, team, sc, book))
    enemy_ids = {t.id for t in sc.enemy}
    for wave in sc.reinforcements:
        side = "enemy" if wave.team in enemy_ids else "friendly"
        elite = sc.elite if wave.elite is None else wave.elite
        men.extend(_profile_man(side, spec, book, elite=elite) for spec in wave.characters)
        if wave.cup is not None:
            men.extend(_counter_men(side, wave.cup.counters, book, elite=elite))
    return men


def _hexes(text: str | None) -> list[Hex]:
    out = []
    for tok in (text or "").split():
        try:
            out.append(Hex.parse(tok))
        except GeometryError:
            continue
    return out


def _places(sc: Scenario) -> list[Hex]:
    """Set-up, entry, vehicle, objective and exit hexes: where the fight is."""
    texts: list[str | None] = []
    for team in (*sc.friendly, *sc.enemy):
        texts.append(team.hexes)
        texts.extend(c.hex for c in team.characters)
        texts.extend(cup.hexes for cup in team.cup)
    for wave in sc.reinforcements:
        texts.append(wave.hexes)
    texts.extend(v.hex for v in sc.vehicles)
    texts.extend(o.hex for o in sc.victory.objectives)
    texts.extend(e.hexes for e in sc.victory.exits)
    seen: dict[Hex, None] = {}
    for t in texts:
        for h in _hexes(t):
            seen[h] = None
    return list(seen)


def terrain_in_reach(m: MapDef, places: list[Hex], reach: int = REACH) -> set[str]:
    """Terrain ids (hex terrain, overlays, hexside features, and ``foxhole`` only on trees)
    within ``reach`` hexes of any of ``places``."""
    near = [h for h in m.hexes if any(distance(h, p, m.stagger) <= reach for p in places)]
    near_set = set(near)
    found: set[str] = set()
    for h in near:
        found.add(m.terrain[h])
        for o in m.overlays.get(h, ()):
            if o == "foxhole" and m.terrain[h] != "trees":
                continue
            found.add(o)
    for (a, b), feature in m.hexsides.items():
        if a in near_set or b in near_set:
            found.add(feature)
    return found


_TERRAIN_ALIASES = {"depression": ("depression", "stream", "crater"), "logs": ("logs", "long_grass")}


def scenario_features(sc: Scenario, data: HouseData, *, reach: int = REACH) -> set[str]:
    """The feature keys (of :data:`FEATURES`) that scenario ``sc`` uses."""
    got: set[str] = set()
    men = scenario_men(sc, data.characters)
    elite = sc.elite or any(t.elite for t in sc.enemy) or any(w.elite for w in sc.reinforcements)
    if elite:
        got.add("C2 24 Elite SS")
    for man in men:
        for s in man.skills:
            got.add(f"C2 24.1 skill {s} ({man.side})")
        if man.trained_medic:
            got.add("C2 30 trained medic")
        for w in man.weapons:
            if w in C2_WEAPONS:
                got.add(f"C2 26 {w}")
            if w == "bazooka":
                got.add("C2 32.1 bazooka")
    team_ids = {t.id for t in sc.friendly}
    if any(t.roll is TeamRoll.CHARACTER_SELECTION for t in sc.friendly):
        got.add("C2 25 squad rolled on the selection table")
    if "charlie" in team_ids:
        got.add("C2 25 Charlie team")
    if "com" in team_ids:
        got.add("C2 25 COM team")
    m = sc.map_def if sc.map_def is not None else data.maps.get(sc.map)
    if m is not None:
        terrain = terrain_in_reach(m, _places(sc), reach)
        for name, tid in TERRAIN_FEATURES:
            ids = _TERRAIN_ALIASES.get(tid, (tid,))
            if tid == "field":
                if "field" in terrain and sc.month in (data.terrain["field"].small_months or ()):
                    got.add(name)
            elif any(i in terrain for i in ids):
                got.add(name)
    got.add(f"C2 28.1 weather {sc.weather.value}")
    got.add(f"C2 28.2 ground {sc.ground.value}")
    if sc.barrages:
        got.add("C2 29 fire (a scheduled barrage may kindle it)")
        got.add("§14 barrage")
    if sc.fires.strip():
        got.add("C2 29.0 fire set by the scenario (fires:)")
    if sc.c4:
        got.add("§14 C4")
    for v in sc.vehicles:
        if v.wrecked:
            got.add("C2 27.9 wreck as terrain")
            continue
        vtype = data.vehicles.get(v.type)
        got.add(f"C2 31 {vtype.kind.value} ({v.side})")
        for mw in vtype.weapons:
            if mw.weapon in C2_WEAPONS:
                got.add(f"C2 26 {mw.weapon}")
        if v.road_orders:
            got.add("C2 31.11.1 road orders")
    if sc.minefields.strip() or (m is not None and m.minefields):  # the scenario's or the map's
        got.add("C2 31.5 minefields")
    if sc.panzerfaust is not None and sc.panzerfaust.level > 0:
        got.add(f"C2 32.3 Panzerfaust level {sc.panzerfaust.level}")
        got.add(f"C2 32.3 {sc.panzerfaust.type}")
    if sc.night:
        got.add("§15 night")
    if sc.large_battle:
        got.add("9.2 large battle")
    if sc.options.get("optional_enemy_activation"):
        got.add("C2 23.5 optional Enemy activation")
    if any(w.event for w in sc.reinforcements):
        got.add("§18 event reinforcements")
    return got & set(FEATURES)


def feature_matrix(scenarios: list[Scenario], data: HouseData, *, reach: int = REACH) -> dict[str, list[str]]:
    """Feature key -> the ids of the scenarios that use it (every key of :data:`FEATURES`, in order)."""
    used = {sc.id: scenario_features(sc, data, reach=reach) for sc in scenarios}
    return {f: [sid for sid, fs in used.items() if f in fs] for f in FEATURES}


def format_matrix(matrix: dict[str, list[str]]) -> str:
    """The matrix as text: one line per feature with its scenarios, then the features no scenario uses."""
    width = max(len(f) for f in matrix)
    lines = [f"{f.ljust(width)}  {', '.join(ids) if ids else '-'}" for f, ids in matrix.items()]
    unused = [f for f, ids in matrix.items() if not ids]
    lines.append("")
    lines.append(f"Used by no scenario ({len(unused)} of {len(matrix)}):")
    lines.extend(f"  {f}" for f in unused)
    return "\n".join(lines)
