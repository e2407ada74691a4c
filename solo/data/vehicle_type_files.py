"""Reading and checking vehicle type files (``cards/vehicles/*.yaml``; C2 31.0-31.10).

The files as written, one type per file named by its id, and what makes one valid: crew roles once
each in activation order (31.1); hatches only on AFV crew, with open and closed LOS (31.7, 31.8);
passenger numbers 1-N and no passengers on AFVs (31.3); weapons fired from existing positions,
known to the weapons chart with the ammunition carried (31.9); armor on Half-Tracks and AFVs
only, glancing at least normal (31.10.4-31.10.5); Front, Side and Rear hit location tables
covering 00-99 and naming existing positions, armor zones and damage columns (31.10.3); damage
columns covering 0-9 (31.10.8). :func:`load_vehicle_types` loads a directory and raises one
:class:`~solo.core.errors.DataError` naming every problem of every file with its line.

May import: :mod:`solo.core`, :mod:`solo.data.weapons`, :mod:`solo.data.roll_ranges`,
:mod:`solo.data.vehicle_types`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from solo.core import datafile
from solo.core.bounds import ARMOUR, COUNTER
from solo.core.datafile import (
    SNAKE_ID,
    DataFile,
    DocPath,
    Problems,
    structure,
)
from solo.core.errors import DataError, Problem
from solo.core.hexes import Arc
from solo.core.resources import cards_dir, display_name
from solo.data.roll_ranges import Rolls, coverage
from solo.data.vehicle_types import (
    CREW_ACTIVATION_ORDER,
    DAMAGE_LOCATIONS,
    ArcName,
    ArmorValue,
    ArmorZone,
    CrewCheck,
    DamageColumn,
    DamageEffect,
    DamageRow,
    Frame,
    HitLocation,
    Location,
    Mount,
    MountId,
    Position,
    Role,
    Rounds,
    Speed,
    VehicleKind,
    VehicleType,
    VehicleTypes,
    VehicleWeapon,
)
from solo.data.weapons import AmmoKind, Nation, WeaponKind, WeaponTable

VEHICLES_DIR = "vehicles"
"""The folder of vehicle types under ``cards/``."""


_CREW_LOCATIONS = frozenset({Location.HATCH, Location.PERISCOPE, Location.VISION_SLOT, Location.CREW})


@attrs.frozen
class _PositionEntry:
    role: Role | None = None
    number: COUNTER | None = None
    hatch: bool = False
    frame: Frame = Frame.HULL
    los_open: tuple[ArcName, ...] | None = None
    los_closed: tuple[ArcName, ...] | None = None
    exposed_from: tuple[ArcName, ...] = ()
    fire_arcs: tuple[ArcName, ...] = ()
    fire_kinds: tuple[WeaponKind, ...] = ()
    exits_via: tuple[Role, ...] = ()
    note: str = ""


@attrs.frozen
class _WeaponEntry:
    id: MountId
    weapon: str
    mount: Mount
    fired_by: tuple[str, ...]
    arcs: tuple[ArcName, ...]
    rounds: Rounds | None = None
    note: str = ""


@attrs.frozen
class _ArmorEntry:
    normal: ARMOUR
    glancing: ARMOUR


@attrs.frozen
class _HitEntry:
    rolls: Rolls
    location: Location
    crew: Role | None = None
    passengers: tuple[COUNTER, ...] = ()
    armor: ArmorZone | None = None
    glancing: bool = False
    damage: str | None = None
    mc: tuple[CrewCheck, ...] = ()
    fmc: tuple[CrewCheck, ...] = ()
    note: str = ""


@attrs.frozen
class _DamageEntry:
    d10: Rolls
    kia: tuple[Role, ...] = ()
    mc: tuple[CrewCheck, ...] = ()
    fmc: tuple[CrewCheck, ...] = ()
    effects: tuple[DamageEffect, ...] = ()
    location: Location | None = None
    reroll: str | None = None
    note: str = ""


@attrs.frozen
class _VehicleFile:
    id: str
    name: str
    nation: Nation
    kind: VehicleKind
    speeds: tuple[Speed, ...]
    crew: tuple[_PositionEntry, ...]
    hit_locations: dict[Arc, tuple[_HitEntry, ...]]
    turret: bool = False
    passengers: tuple[_PositionEntry, ...] = ()
    cupola: _PositionEntry | None = None
    weapons: tuple[_WeaponEntry, ...] = ()
    armor: dict[ArmorZone, _ArmorEntry] = attrs.field(factory=dict)
    damage: dict[str, tuple[_DamageEntry, ...]] = attrs.field(factory=dict)
    edition: str = "house"
    notes: str = ""


def _wedges(arcs: tuple[ArcName, ...] | None) -> tuple[int, ...] | None:
    if arcs is None:
        return None
    return tuple(sorted({w for a in arcs for w in a.wedges}))


def _position(
    doc: DataFile, probs: Problems, where: DocPath, e: _PositionEntry, pid: str, *, turret: bool
) -> Position:
    if e.hatch and (e.los_open is None or e.los_closed is None):
        probs.add(doc, where, f"position {pid!r} has a hatch: give both los_open and los_closed (31.7.3)")
    if not e.hatch and (e.los_open is None) == (e.los_closed is None):
        probs.add(
            doc,
            where,
            f"position {pid!r} has no hatch: give exactly one of los_open (exposed) or "
            "los_closed (inside the armor)",
        )
    if e.frame is Frame.TURRET and not turret:
        probs.add(doc, (*where, "frame"), f"position {pid!r} turns with a turret the vehicle does not have")
    if e.exits_via and e.hatch:
        probs.add(
            doc, (*where, "exits_via"), f"position {pid!r} has its own hatch; exits_via is for hatchless ones"
        )
    return Position(
        id=pid,
        role=e.role,
        number=e.number,
        hatch=e.hatch,
        frame=e.frame,
        los_open=_wedges(e.los_open),
        los_closed=_wedges(e.los_closed),
        exposed_from=_wedges(e.exposed_from) or (),
        fire_arcs=_wedges(e.fire_arcs) or (),
        fire_kinds=tuple(dict.fromkeys(e.fire_kinds)),
        exits_via=e.exits_via,
    )


def _positions(
    doc: DataFile, probs: Problems, raw: _VehicleFile
) -> tuple[tuple[Position, ...], tuple[Position, ...], Position | None]:
    crew: list[Position] = []
    seen_roles: dict[Role, int] = {}
    for i, e in enumerate(raw.crew):
        where: DocPath = ("crew", i)
        if e.role is None or e.number is not None:
            probs.add(doc, where, "a crew position names its role (and no passenger number)")
            continue
        if e.role in seen_roles:
            probs.add(
                doc,
                (*where, "role"),
                f"role {e.role.value!r} twice (also crew entry {seen_roles[e.role] + 1})",
            )
            continue
        seen_roles[e.role] = i
        crew.append(_position(doc, probs, where, e, e.role.value, turret=raw.turret))
    order = [r for r in CREW_ACTIVATION_ORDER if r in seen_roles]
    if [p.role for p in crew] != order:
        probs.add(
            doc, ("crew",), "list the crew in activation order: commander, driver, gunner, loader, co_driver"
        )
    for i, e in enumerate(raw.crew):
        if raw.kind is VehicleKind.AFV and e.role is not None and not e.hatch and e.los_open is not None:
            probs.add(
                doc, ("crew", i), "an AFV position without a hatch is inside the armor: give los_closed"
            )
        if raw.kind is not VehicleKind.AFV and e.hatch:
            probs.add(doc, ("crew", i, "hatch"), "only AFV positions have hatches (31.8)")
        for j, via in enumerate(e.exits_via):
            if via not in seen_roles or not raw.crew[seen_roles[via]].hatch:
                probs.add(
                    doc,
                    ("crew", i, "exits_via", j),
                    f"exits_via {via.value!r} is not a crew position with a hatch",
                )
    passengers: list[Position] = []
    numbers: list[int] = []
    for i, e in enumerate(raw.passengers):
        where = ("passengers", i)
        if e.number is None or e.role is not None:
            probs.add(doc, where, "a passenger position names its number (and no role)")
            continue
        if e.hatch:
            probs.add(doc, (*where, "hatch"), "passenger positions have no hatch (31.8)")
        numbers.append(e.number)
        passengers.append(_position(doc, probs, where, e, f"passenger_{e.number}", turret=raw.turret))
    if numbers and numbers != list(range(1, len(numbers) + 1)):
        probs.add(
            doc, ("passengers",), f"passenger numbers must run 1-{len(numbers)} in order, got {numbers}"
        )
    if raw.passengers and raw.kind is VehicleKind.AFV:
        probs.add(doc, ("passengers",), "no Character may ride on an AFV (31.3)")
    cupola = None
    if raw.cupola is not None:
        if raw.kind is not VehicleKind.HALF_TRACK:
            probs.add(doc, ("cupola",), "only Half-Tracks have a cupola (31.7.2, 31.9.3)")
        if raw.cupola.role is not None or raw.cupola.number is not None or raw.cupola.hatch:
            probs.add(doc, ("cupola",), "the cupola has no role, number or hatch")
        cupola = _position(doc, probs, ("cupola",), raw.cupola, "cupola", turret=raw.turret)
    return tuple(crew), tuple(passengers), cupola


def _vehicle_weapons(
    doc: DataFile, probs: Problems, raw: _VehicleFile, position_ids: set[str], weapons: WeaponTable | None
) -> tuple[VehicleWeapon, ...]:
    out: list[VehicleWeapon] = []
    seen: set[MountId] = set()
    for i, e in enumerate(raw.weapons):
        where: DocPath = ("weapons", i)
        if e.id in seen:
            probs.add(doc, (*where, "id"), f"weapon {e.id.value!r} twice")
        seen.add(e.id)
        if not e.fired_by:
            probs.add(doc, (*where, "fired_by"), "name the position(s) that fire it")
        for j, pid in enumerate(e.fired_by):
            if pid not in position_ids:
                probs.add(doc, (*where, "fired_by", j), f"no position {pid!r} on this vehicle")
        if e.mount is Mount.TURRET and not raw.turret:
            probs.add(doc, (*where, "mount"), "a turret mount on a vehicle without a turret")
        if (e.rounds is None) != (e.id is not MountId.MAIN_GUN):
            probs.add(doc, where, "the main gun (and only it) lists the rounds carried")
        if e.rounds is not None and (e.rounds.he < 0 or e.rounds.ap < 0):
            probs.add(doc, (*where, "rounds"), "rounds carried cannot be negative")
        if weapons is not None:
            if e.weapon not in weapons:
                probs.add(doc, (*where, "weapon"), f"unknown weapon {e.weapon!r} (not in weapons.yaml)")
            else:
                w = weapons.get(e.weapon)
                wanted = WeaponKind.MAIN_GUN if e.id is MountId.MAIN_GUN else WeaponKind.MG
                if w.kind is not wanted:
                    probs.add(
                        doc,
                        (*where, "weapon"),
                        f"{e.weapon!r} is a {w.kind.value}, expected a {wanted.value}",
                    )
                if e.rounds is not None:
                    kinds = {a.kind for a in w.ammo}
                    for kind in (AmmoKind.HE, AmmoKind.AP):
                        if e.rounds.of(kind) and kind not in kinds:
                            probs.add(doc, (*where, "rounds"), f"{e.weapon!r} has no {kind.value} ammunition")
        out.append(
            VehicleWeapon(
                id=e.id,
                weapon=e.weapon,
                mount=e.mount,
                fired_by=e.fired_by,
                arcs=_wedges(e.arcs) or (),
                rounds=e.rounds,
            )
        )
    return tuple(out)


def _hit_tables(
    doc: DataFile, probs: Problems, raw: _VehicleFile, vt: dict[str, Any]
) -> tuple[tuple[Arc, tuple[HitLocation, ...]], ...]:
    tables: list[tuple[Arc, tuple[HitLocation, ...]]] = []
    roles = {p.role for p in vt["crew"]}
    hatched = {p.role for p in vt["crew"] if p.hatch}
    numbers = {p.number for p in vt["passengers"]}
    mounts = {w.id for w in vt["weapons"]}
    for aspect in Arc:
        if aspect not in raw.hit_locations:
            probs.add(doc, ("hit_locations",), f"no {aspect.value} hit location table (31.10.3)")
            continue
        rows: list[HitLocation] = []
        ranges: list[tuple[Rolls, DocPath]] = []
        for i, e in enumerate(raw.hit_locations[aspect]):
            where: DocPath = ("hit_locations", aspect.value, i)
            ranges.append((e.rolls, (*where, "rolls")))
            _check_hit(doc, probs, where, e, raw, roles, hatched, numbers, mounts)
            rows.append(
                HitLocation(
                    rolls=e.rolls,
                    location=e.location,
                    crew=e.crew,
                    passengers=e.passengers,
                    armor=e.armor,
                    glancing=e.glancing,
                    damage=e.damage,
                    mc=e.mc,
                    fmc=e.fmc,
                    note=e.note,
                )
            )
        if not ranges:
            probs.add(doc, ("hit_locations", aspect.value), f"the {aspect.value} table has no rows")
            continue
        coverage(doc, probs, ranges, 0, 99, f"{aspect.value} hit locations", 2)
        tables.append((aspect, tuple(rows)))
    return tuple(tables)


def _check_hit(
    doc: DataFile,
    probs: Problems,
    where: DocPath,
    e: _HitEntry,
    raw: _VehicleFile,
    roles: set[Role | None],
    hatched: set[Role | None],
    numbers: set[int | None],
    mounts: set[MountId],
) -> None:
    loc = e.location
    if loc in _CREW_LOCATIONS:
        if e.crew is None:
            probs.add(doc, where, f"a {loc.value} hit names the crew position (crew: driver ...)")
        elif e.crew not in roles:
            probs.add(doc, (*where, "crew"), f"no {e.crew.value} position on this vehicle")
        elif loc is Location.HATCH and e.crew not in hatched:
            probs.add(doc, (*where, "crew"), f"the {e.crew.value} position has no hatch (31.8)")
    elif e.crew is not None:
        probs.add(doc, (*where, "crew"), f"a {loc.value} hit names no crew position")
    wanted = {Location.PASSENGER: 1, Location.BETWEEN_PASSENGERS: 2}.get(loc, 0)
    if len(e.passengers) != wanted:
        probs.add(
            doc, where, f"a {loc.value} hit names {wanted} passenger position(s), got {len(e.passengers)}"
        )
    for j, n in enumerate(e.passengers):
        if n not in numbers:
            probs.add(doc, (*where, "passengers", j), f"no passenger position {n} on this vehicle")
    if loc in DAMAGE_LOCATIONS and e.damage is None:
        probs.add(doc, where, f"a {loc.value} hit is rolled on a damage column: give damage")
    if loc not in DAMAGE_LOCATIONS and e.damage is not None:
        probs.add(doc, (*where, "damage"), f"a {loc.value} hit is resolved by 31.10.8, not a damage column")
    if e.damage is not None and e.damage not in raw.damage:
        probs.add(doc, (*where, "damage"), f"no damage column {e.damage!r} on this vehicle")
    if e.armor is not None and e.armor not in raw.armor:
        probs.add(doc, (*where, "armor"), f"no {e.armor.value} armor on this vehicle")
    if e.glancing and e.armor is None:
        probs.add(doc, (*where, "glancing"), "a glancing hit names the armor zone it glances off")
    if not raw.kind.is_armored and e.armor is not None:
        probs.add(doc, (*where, "armor"), f"a {raw.kind.value} has no armor (31.10.1-31.10.2)")
    if raw.kind.is_armored and e.damage is not None and e.armor is None:
        probs.add(doc, where, "hits on an armored vehicle need a penetration roll before damage: give armor")
    needs = {
        Location.COAXIAL_MG: MountId.COAXIAL_MG,
        Location.BOW_MG: MountId.BOW_MG,
        Location.GUN_BARREL: MountId.MAIN_GUN,
        Location.GUNNER_SIGHT: MountId.MAIN_GUN,
    }.get(loc)
    if needs is not None and needs not in mounts:
        probs.add(doc, (*where, "location"), f"a {loc.value} hit on a vehicle without a {needs.value}")
    if loc in (Location.TURRET, Location.TURRET_RING) and not raw.turret:
        probs.add(doc, (*where, "location"), f"a {loc.value} hit on a vehicle without a turret")
    if loc is Location.CUPOLA and raw.cupola is None:
        probs.add(doc, (*where, "location"), "a cupola hit on a vehicle without a cupola")
    _check_crew_checks(doc, probs, where, e.mc, e.fmc, roles, bool(numbers))


def _check_crew_checks(
    doc: DataFile,
    probs: Problems,
    where: DocPath,
    mc: tuple[CrewCheck, ...],
    fmc: tuple[CrewCheck, ...],
    roles: set[Role | None],
    has_passengers: bool,
) -> None:
    for key, checks in (("mc", mc), ("fmc", fmc)):
        for j, c in enumerate(checks):
            if c is CrewCheck.ALL:
                continue
            if c is CrewCheck.PASSENGERS:
                if not has_passengers:
                    probs.add(doc, (*where, key, j), "passengers check on a vehicle without passengers")
                continue
            if Role(c.value) not in roles:
                probs.add(doc, (*where, key, j), f"no {c.value} position on this vehicle")


def _damage_columns(
    doc: DataFile, probs: Problems, raw: _VehicleFile, roles: set[Role | None]
) -> tuple[DamageColumn, ...]:
    columns: list[DamageColumn] = []
    has_passengers = bool(raw.passengers)
    used = {e.damage for rows in raw.hit_locations.values() for e in rows if e.damage is not None}
    used |= {e.reroll for rows in raw.damage.values() for e in rows if e.reroll is not None}
    for cid, entries in raw.damage.items():
        if not SNAKE_ID.match(cid):
            probs.add(doc, ("damage", cid), f"damage column id {cid!r} must be snake_case", at_key=True)
        if cid not in used:
            probs.add(doc, ("damage", cid), f"damage column {cid!r} is never rolled on", at_key=True)
        ranges: list[tuple[Rolls, DocPath]] = []
        rows: list[DamageRow] = []
        for i, e in enumerate(entries):
            where: DocPath = ("damage", cid, i)
            ranges.append((e.d10, (*where, "d10")))
            for j, r in enumerate(e.kia):
                if r not in roles:
                    probs.add(doc, (*where, "kia", j), f"no {r.value} position on this vehicle")
            _check_crew_checks(doc, probs, where, e.mc, e.fmc, roles, has_passengers)
            if e.reroll is not None and (e.reroll == cid or e.reroll not in raw.damage):
                probs.add(doc, (*where, "reroll"), f"re-roll on {e.reroll!r}: not another damage column")
            if e.location is not None and e.location in DAMAGE_LOCATIONS:
                probs.add(
                    doc, (*where, "location"), f"{e.location.value!r} is not a 31.10.8 special location"
                )
            turret_effects = {DamageEffect.TURRET_FIRE, DamageEffect.TURRET_JAMMED}
            if not raw.turret and turret_effects.intersection(e.effects):
                probs.add(doc, (*where, "effects"), "a turret effect on a vehicle without a turret")
            rows.append(
                DamageRow(
                    rolls=e.d10,
                    kia=e.kia,
                    mc=e.mc,
                    fmc=e.fmc,
                    effects=e.effects,
                    location=e.location,
                    reroll=e.reroll,
                    note=e.note,
                )
            )
        if not ranges:
            probs.add(doc, ("damage", cid), f"damage column {cid!r} has no rows", at_key=True)
            continue
        before = len(probs.items)
        coverage(doc, probs, ranges, 0, 9, f"damage column {cid!r}", 1)
        if len(probs.items) == before:
            columns.append(DamageColumn(cid, tuple(rows)))
    return tuple(columns)


def vehicle_type_from(doc: DataFile, weapons: WeaponTable | None = None) -> VehicleType:
    """Build a :class:`VehicleType` from one read vehicle file.

    Checks: snake_case id; crew roles once each, in activation order; hatches only on AFV
    crew, with open and closed LOS (a hatchless position gives one); passenger numbers 1-N;
    no passengers on AFVs (31.3); weapons fired by existing positions, known in ``weapons``
    (if given) with the ammunition carried; armor on Half-Tracks and AFVs only, glancing at
    least normal; Front, Side and Rear hit tables each covering 00-99 exactly once, every row
    naming existing positions, armor zones and damage columns; damage columns covering 0-9
    exactly once. Raises :class:`DataError` listing every problem (C2 31.0-31.10).
    """
    raw = structure(doc, _VehicleFile)
    probs = Problems()
    if not SNAKE_ID.match(raw.id):
        probs.add(doc, ("id",), f"vehicle id {raw.id!r} must be snake_case")
    if not raw.speeds:
        probs.add(doc, ("speeds",), "list the movement orders the vehicle may be given")
    if len(set(raw.speeds)) != len(raw.speeds):
        probs.add(doc, ("speeds",), "a speed is listed twice")
    if raw.kind is VehicleKind.AFV and not raw.crew:
        probs.add(doc, ("crew",), "an AFV has crew positions (31.3)")
    if raw.kind is not VehicleKind.AFV and raw.turret:
        probs.add(doc, ("turret",), "only AFVs have turrets (31.6)")
    crew, passengers, cupola = _positions(doc, probs, raw)
    if not any(p.role is Role.DRIVER for p in crew):
        probs.add(doc, ("crew",), "every vehicle has a driver position (31.3)")
    if raw.kind is VehicleKind.AFV and raw.crew:
        for role in (Role.COMMANDER, Role.GUNNER):
            if not any(p.role is role for p in crew):
                probs.add(doc, ("crew",), f"an AFV has a {role.value} position (31.3)", at_key=True)
    position_ids = {p.id for p in (*crew, *passengers)} | ({"cupola"} if cupola else set())
    vweapons = _vehicle_weapons(doc, probs, raw, position_ids, weapons)
    armor_values: list[ArmorValue] = []
    for zone, a in raw.armor.items():
        if a.normal < 0 or a.glancing < a.normal:
            probs.add(
                doc, ("armor", zone.value), f"{zone.value}: glancing {a.glancing} below normal {a.normal}"
            )
        if zone.value.startswith("turret") and not raw.turret:
            probs.add(
                doc, ("armor", zone.value), f"{zone.value} armor on a vehicle without a turret", at_key=True
            )
        armor_values.append(ArmorValue(zone, a.normal, a.glancing))
    if raw.kind.is_armored and not raw.armor:
        probs.add(doc, ("kind",), f"a {raw.kind.value} has armor (31.10.4): give armor")
    if not raw.kind.is_armored and raw.armor:
        probs.add(doc, ("armor",), f"a {raw.kind.value} has no armor (31.10.1-31.10.2)", at_key=True)
    parts = {"crew": crew, "passengers": passengers, "weapons": vweapons}
    hit_tables = _hit_tables(doc, probs, raw, parts)
    columns = _damage_columns(doc, probs, raw, {p.role for p in crew})
    probs.raise_if_any()
    return VehicleType(
        id=raw.id,
        name=raw.name,
        nation=raw.nation,
        kind=raw.kind,
        turret=raw.turret,
        speeds=raw.speeds,
        crew=crew,
        passengers=passengers,
        cupola=cupola,
        weapons=vweapons,
        armor_values=tuple(armor_values),
        hit_tables=hit_tables,
        damage_columns=columns,
        notes=raw.notes,
    )


def load_vehicle_type(path: Path | str, weapons: WeaponTable | None = None) -> VehicleType:
    """Load one vehicle file (``cards/vehicles/panzer_ivh.yaml``). Raises :class:`DataError`."""
    p = Path(path)
    return vehicle_type_from(datafile.read(p, display_name(p)), weapons)


def load_vehicle_types(
    directory: Path | str | None = None, *, weapons: WeaponTable | None = None
) -> VehicleTypes:
    """Load every ``*.yaml`` of ``directory`` (``None``: the shipped ``cards/vehicles/``).

    Each file holds one type whose ``id`` is the file name without ``.yaml``. ``weapons``
    (the card set's weapons chart) checks the weapon ids, kinds and ammunition; ``None``
    skips that check. Raises one :class:`DataError` with the problems of every file (C2 31.0).
    """
    d = cards_dir() / VEHICLES_DIR if directory is None else Path(directory)
    if not d.is_dir():
        raise DataError([Problem(str(d), None, "no such vehicles directory")])
    problems: list[Problem] = []
    types: list[VehicleType] = []
    for f in sorted(d.glob("*.yaml")):
        try:
            doc = datafile.read(f, display_name(f))
            vt = vehicle_type_from(doc, weapons)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        if vt.id != f.stem:
            problems.append(doc.problem(("id",), f"vehicle id {vt.id!r} must match the file name {f.stem!r}"))
        types.append(vt)
    if not types and not problems:
        problems.append(Problem(display_name(d), None, "no vehicle types (*.yaml) in this directory"))
    if problems:
        raise DataError(problems)
    return VehicleTypes(tuple(types))


__all__ = [
    "VEHICLES_DIR",
    "load_vehicle_type",
    "load_vehicle_types",
    "vehicle_type_from",
]
