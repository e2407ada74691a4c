"""Scenarios (``maps/scenarios/*.yaml``): the set-up of a game, and the initial :class:`GameState`.

A scenario names its map, month, weather and ground (C2 28.1–28.2), night,
turn limit and starting hand; the Friendly squad by team (Able, Baker,
Charlie, COM: characters written out, taken from a house profile, or rolled on
the C2 25.0 New Character Selection Table); the Enemy teams by colour
(characters placed by hand or counters drawn from cups with dummies; Waiting or
Alert, Prepared or Unprepared, morale, elite SS counterparts of C2 24.0); large
battle (9.2), house options, Direction Counters, wind, reinforcements, event
tables, prisoner and capture rules (C2 23.3–23.4), victory points and board
edges. The shipped scenarios are the worked examples of the format; their
comments explain every section.

:func:`load_scenario` reads and checks a file and raises one
:class:`~solo.core.errors.DataError` with every problem and its line.
:func:`solo.rules.setup.build_state` turns a scenario into the initial game state.

The character profiles (the Friendly squad of C2 25.0, the Enemy counters 1–21
and their SS counterparts) live in ``cards/characters.yaml``
(:func:`load_characters`).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.datafile import (
    SNAKE_ID,
    DataFile,
    DocPath,
    Problems,
    check_unique,
    converter,
    read,
    read_card_file,
    structure,
)
from solo.core.errors import DataError, GeometryError
from solo.core.hexes import Direction, Hex, rotate
from solo.core.options import Options
from solo.core.resources import display_name, maps_dir
from solo.core.sides import Side
from solo.data.cards import DirectionString
from solo.data.tables import MoraleState

if TYPE_CHECKING:
    from solo.data.house import HouseData
    from solo.data.maps import MapDef
    from solo.data.orders import Order, OrderTable
    from solo.data.weapons import WeaponTable

__all__ = [
    "ENEMY_TEAMS",
    "FRIENDLY_TEAMS",
    "ROLLED_TEAMS",
    "STANDARD_BANDS",
    "CharacterBook",
    "CharacterSpec",
    "CounterProfile",
    "CounterRole",
    "CupSpec",
    "DirectionCounterSpec",
    "Edges",
    "EventTables",
    "EventVariant",
    "ExitSpec",
    "ForcedOrder",
    "FriendlyProfile",
    "Ground",
    "MapSide",
    "MgRole",
    "Objective",
    "PrisonerRules",
    "ReinforcementSpec",
    "Scenario",
    "SelectionRow",
    "SelectionTable",
    "Skill",
    "TeamRoll",
    "TeamSpec",
    "Victory",
    "VictoryBand",
    "WeaponSpec",
    "Weather",
    "load_characters",
    "load_scenario",
    "parse_forced_order",
    "shipped_scenarios",
]

FRIENDLY_TEAMS: tuple[str, ...] = ("able", "baker", "charlie", "com")
"""Team ids a Friendly team may take (base-rules §2; COM is the C2 25.0 Command team)."""
ENEMY_TEAMS: tuple[str, ...] = ("blue", "red", "yellow", "white", "teal", "purple")
"""Team ids (colours) an Enemy team may take (base-rules §2)."""
ROLLED_TEAMS: tuple[str, ...] = ("able", "baker", "charlie")
"""The teams the C2 25.0 New Character Selection Table fills."""
TEAM_NAMES: dict[str, str] = {"com": "Command"}
"""Display names that are not the id capitalised."""
MAX_TURNS = 99
MAX_HAND = 5
"""The Friendly hand limit (base-rules §18); a starting hand may not exceed it."""
_MAX_REROLLS = 100
"""How many 9s in a row the selection-table roll tolerates before giving up (ChanceError)."""


# ---------------------------------------------------------------------------
# Closed sets


class Weather(enum.StrEnum):
    """Weather (C2 28.1). Compares equal to its value (``Weather.FOG == "fog"``)."""

    CLEAR = "clear"
    RAIN = "rain"
    """−1 WS beyond 2 hexes."""
    HEAVY_RAIN = "heavy_rain"
    """Max LOS 2d6; −1 WS beyond 2 hexes; d10 = 9 at each End Phase turns the ground to Mud."""
    MIST = "mist"
    """Max LOS 1d6+4; −1 WS beyond 2 hexes."""
    FOG = "fog"
    """Max LOS 1d6; −2 WS beyond 2 hexes."""

    @property
    def max_los_dice(self) -> str | None:
        """The dice rolled at set-up for the maximum LOS (C2 28.1), or None (no limit)."""
        return _MAX_LOS_DICE.get(self)


_MAX_LOS_DICE = {Weather.HEAVY_RAIN: "2d6", Weather.MIST: "1d6+4", Weather.FOG: "1d6"}


class Ground(enum.StrEnum):
    """Ground condition (C2 28.2)."""

    NORMAL = "normal"
    MUD = "mud"
    SNOW = "snow"
    DEEP_SNOW = "deep_snow"


class Skill(enum.StrEnum):
    """Character skills: the closed list (base-rules §3; C2 24.1; campaign skills)."""

    TOUGH = "tough"
    MEDIC = "medic"
    EAGLE_EYES = "eagle_eyes"
    SNIPER = "sniper"
    DODGE = "dodge"
    DODGE_2 = "dodge_2"
    KNIFE_EXPERT = "knife_expert"
    DEADLY = "deadly"
    WINTER_CAMOUFLAGE = "winter_camouflage"
    DRIVE = "drive"


class MgRole(enum.StrEnum):
    """Place in a belt-fed machine-gun team (14.3)."""

    OPERATOR = "operator"
    ASSISTANT = "assistant"


class CounterRole(enum.StrEnum):
    """What an Enemy counter stands for (a label; base-rules §3 typical profiles)."""

    OFFICER = "officer"
    NCO = "nco"
    VETERAN = "veteran"
    RIFLEMAN = "rifleman"
    RECRUIT = "recruit"
    MG_OPERATOR = "mg_operator"
    MG_ASSISTANT = "mg_assistant"
    SNIPER = "sniper"


class MapSide(enum.StrEnum):
    """A side of the map: north is row 00 (direction 1 points north)."""

    NORTH = "north"
    SOUTH = "south"
    EAST = "east"
    WEST = "west"


class TeamRoll(enum.StrEnum):
    """How a Friendly team's members are rolled at set-up."""

    CHARACTER_SELECTION = "character_selection"
    """C2 25.0 New Character Selection Table (one d10 for the whole squad)."""


class EventVariant(enum.StrEnum):
    """Which variant of an event table a scenario uses (base-rules §18) [house names]."""

    ATTACKING = "attacking"
    DEFENDING = "defending"
    MEETING = "meeting"


def _str_enum_hook(value: Any, cls: type[enum.StrEnum]) -> enum.StrEnum:
    """Structure a :class:`enum.StrEnum` strictly (the converter's ``str`` hook would take any string)."""
    if isinstance(value, str):
        try:
            return cls(value)
        except ValueError:
            pass
    options = ", ".join(repr(m.value) for m in cls)
    raise ValueError(f"unknown value {value!r} (expected one of {options})")


for _cls in (Weather, Ground, Skill, MgRole, CounterRole, MapSide, TeamRoll, EventVariant):
    converter.register_structure_hook(_cls, _str_enum_hook)


# ---------------------------------------------------------------------------
# Character profiles (cards/characters.yaml)


@attrs.frozen
class WeaponSpec:
    """A weapon and the character's WS for it (``{weapon: m1_garand, ws: 5}``, base-rules §3)."""

    weapon: str
    """Weapon id of ``cards/weapons.yaml``."""
    ws: int
    """Weapon Skill, 0-9."""


@attrs.frozen
class FriendlyProfile:
    """A Friendly squad member of C2 25.0 with house-edition values."""

    id: str
    """Stable snake_case id (``"sgt_taylor"``): how the table and scenarios name him."""
    name: str
    tq: int
    weapons: tuple[WeaponSpec, ...] = ()
    ldr: int = 0
    skills: tuple[Skill, ...] = ()
    mg_role: MgRole | None = None
    trained_medic: bool = False


@attrs.frozen
class CounterProfile:
    """An Enemy counter 1–21 (or its SS counterpart, C2 24.0) with house-edition values."""

    counter: int
    """The counter number 1–21."""
    role: CounterRole
    name: str
    tq: int
    weapons: tuple[WeaponSpec, ...] = ()
    ldr: int = 0
    skills: tuple[Skill, ...] = ()
    mg_role: MgRole | None = None
    trained_medic: bool = False


@attrs.frozen
class SelectionRow:
    """One row of the C2 25.0 table: the d10 face and the members of Able, Baker, Charlie."""

    roll: int
    """The d10 face 0–9."""
    able: tuple[str, ...] = ()
    baker: tuple[str, ...] = ()
    charlie: tuple[str, ...] = ()
    reroll: bool = False
    """This face means: roll again (the 9 of C2 25.0)."""

    def members(self, team: str) -> tuple[str, ...]:
        """Profile ids of ``team`` (``"able"``, ``"baker"``, ``"charlie"``) in this row."""
        return getattr(self, team) if team in ROLLED_TEAMS else ()


@attrs.frozen
class SelectionTable:
    """The C2 25.0 New Character Selection Table: one row per d10 face."""

    rows: tuple[SelectionRow, ...]
    rule: str = "C2 25.0"

    def row(self, face: int) -> SelectionRow:
        """The row for d10 ``face`` (0–9). Raises KeyError for a face without a row."""
        for r in self.rows:
            if r.roll == face:
                return r
        raise KeyError(f"no row for d10 face {face}")


@attrs.frozen
class _CharactersFile:
    friendly: tuple[FriendlyProfile, ...]
    selection_table: SelectionTable
    enemy: tuple[CounterProfile, ...]
    elite: tuple[CounterProfile, ...]


@attrs.frozen
class CharacterBook:
    """Every house character profile: the squad (C2 25.0), Enemy counters 1–21 and SS (C2 24.0)."""

    friendly: tuple[FriendlyProfile, ...]
    selection_table: SelectionTable
    enemy: tuple[CounterProfile, ...]
    elite: tuple[CounterProfile, ...]
    source: str = "cards/characters.yaml"

    @functools.cached_property
    def _by_id(self) -> dict[str, FriendlyProfile]:
        return {p.id: p for p in self.friendly}

    def profile(self, profile_id: str) -> FriendlyProfile | None:
        """The Friendly profile ``profile_id``, or None."""
        return self._by_id.get(profile_id)

    def counter(self, number: int, *, elite: bool = False) -> CounterProfile | None:
        """Enemy counter ``number`` (1–21), or its SS counterpart when ``elite``; None if absent."""
        for p in self.elite if elite else self.enemy:
            if p.counter == number:
                return p
        return None


CHARACTERS_FILE = "characters.yaml"


def load_characters(path: Path | str | None = None, weapons: WeaponTable | None = None) -> CharacterBook:
    """Load and check ``cards/characters.yaml`` (or ``path``).

    Checks: snake_case unique profile ids; TQ 1–9, LDR 0–9, WS 0–9; known weapons
    (against ``weapons``, default the shipped table); a selection-table row for
    each d10 face 0–9 exactly once, re-roll rows empty, others naming known
    profiles with no one twice in a row; counters 1–21 exactly once among the
    Enemy and once among the elite. Raises :class:`DataError` with every problem.
    """
    doc = read_card_file(path, CHARACTERS_FILE)
    raw = structure(doc, _CharactersFile)
    if weapons is None:
        from solo.data.weapons import load_weapons

        weapons = load_weapons()
    probs = Problems()
    seen = check_unique(
        probs,
        doc,
        [(("friendly", i, "id"), prof.id) for i, prof in enumerate(raw.friendly)],
        "duplicate profile id {id!r} (also entry {index})",
    )
    for i, prof in enumerate(raw.friendly):
        where: DocPath = ("friendly", i)
        if not SNAKE_ID.match(prof.id):
            probs.add(doc, (*where, "id"), f"profile id {prof.id!r} must be snake_case")
        _check_stats(doc, probs, where, prof, weapons)
    faces: dict[int, int] = {}
    for i, row in enumerate(raw.selection_table.rows):
        where = ("selection_table", "rows", i)
        if not 0 <= row.roll <= 9:
            probs.add(doc, (*where, "roll"), f"roll {row.roll} is not a d10 face 0-9")
        elif row.roll in faces:
            probs.add(doc, (*where, "roll"), f"roll {row.roll} has two rows (also entry {faces[row.roll]})")
        faces.setdefault(row.roll, i)
        members = [(t, k, m) for t in ROLLED_TEAMS for k, m in enumerate(row.members(t))]
        if row.reroll and members:
            probs.add(doc, where, f"roll {row.roll} is a re-roll: it must not name members")
        if not row.reroll and not members:
            probs.add(doc, where, f"roll {row.roll} names no members (or set reroll: true)")
        in_row: set[str] = set()
        for t, k, m in members:
            if m not in seen:
                probs.add(doc, (*where, t, k), f"unknown profile {m!r} (not in friendly:)")
            if m in in_row:
                probs.add(doc, (*where, t, k), f"{m!r} is named twice in roll {row.roll}")
            in_row.add(m)
    missing = [f for f in range(10) if f not in faces]
    if missing:
        probs.add(
            doc,
            ("selection_table", "rows"),
            f"no row for d10 face(s) {', '.join(map(str, missing))} (every face 0-9 needs one)",
        )
    if faces and all(raw.selection_table.rows[i].reroll for i in faces.values()):
        probs.add(doc, ("selection_table", "rows"), "every row is a re-roll")
    for key, counters in (("enemy", raw.enemy), ("elite", raw.elite)):
        numbers = check_unique(
            probs,
            doc,
            [((key, i, "counter"), prof.counter) for i, prof in enumerate(counters)],
            "counter {id} given twice (also entry {index})",
        )
        for i, prof in enumerate(counters):
            where = (key, i)
            if not 1 <= prof.counter <= 21:
                probs.add(doc, (*where, "counter"), f"counter {prof.counter} outside 1-21")
            _check_stats(doc, probs, where, prof, weapons)
        absent = [n for n in range(1, 22) if n not in numbers]
        if absent:
            probs.add(doc, (key,), f"{key}: no profile for counter(s) {', '.join(map(str, absent))}")
    probs.raise_if_any()
    return CharacterBook(raw.friendly, raw.selection_table, raw.enemy, raw.elite, source=doc.name)


def _check_stats(doc: DataFile, probs: Problems, where: DocPath, c: Any, weapons: Any) -> None:
    """TQ, LDR, WS bounds and known weapons of a profile or an explicit character."""
    if c.tq is not None and not 1 <= c.tq <= 9:
        probs.add(doc, (*where, "tq"), f"TQ {c.tq} outside 1-9")
    if not 0 <= c.ldr <= 9:
        probs.add(doc, (*where, "ldr"), f"LDR {c.ldr} outside 0-9")
    for k, w in enumerate(c.weapons):
        if w.weapon not in weapons:
            probs.add(
                doc,
                (*where, "weapons", k, "weapon"),
                f"unknown weapon {w.weapon!r} (not in cards/weapons.yaml)",
            )
        if not 0 <= w.ws <= 9:
            probs.add(doc, (*where, "weapons", k, "ws"), f"WS {w.ws} outside 0-9")


@functools.cache
def _shipped_book() -> CharacterBook:
    return load_characters()


def _book_for(data: Any, characters: CharacterBook | None) -> CharacterBook:
    if characters is not None:
        return characters
    book = getattr(data, "characters", None)
    return book if isinstance(book, CharacterBook) else _shipped_book()


# ---------------------------------------------------------------------------
# The scenario format


@attrs.frozen
class CharacterSpec:
    """One character of a scenario's roster.

    Three ways to give his values: written out (``name``, ``tq``, ``weapons``...),
    a Friendly ``profile`` id of ``cards/characters.yaml``, or (Enemy) a
    ``counter`` number alone, whose profile (or SS counterpart when the team is
    elite) comes from ``cards/characters.yaml``. A ``counter`` given with ``tq``
    is only a label on a written-out character.
    """

    id: str
    """Stable snake_case id (``"able_1"``, ``"red_3"``), unique in the scenario."""
    name: str = ""
    tq: int | None = None
    weapons: tuple[WeaponSpec, ...] = ()
    ldr: int = 0
    skills: tuple[Skill, ...] = ()
    hex: str | None = None
    """Starting hex ``CC.RR``. None: the next of the team's ``hexes`` (or a reinforcement's)."""
    revealed: bool | None = None
    """Friendly: starts Spotted (True) or Hidden. Enemy: Known or Unknown. None: the team's, else False."""
    morale: MoraleState | None = None
    """Starting Morale State; None: the team's, else Normal."""
    mg_role: MgRole | None = None
    trained_medic: bool = False
    dummy: bool = False
    """An Enemy dummy counter (base-rules §3): needs no values."""
    counter: int | None = None
    """Enemy counter number 1–21 (C2 24.0)."""
    profile: str | None = None
    """A Friendly profile id of ``cards/characters.yaml`` (``"sgt_taylor"``)."""


@attrs.frozen
class CupSpec:
    """Counters and dummies drawn at random at set-up, one per set-up hex, Unknown (base-rules §19)."""

    counters: tuple[int, ...] = ()
    """Enemy counter numbers 1–21 (profiles in ``cards/characters.yaml``)."""
    dummies: int = 0
    hexes: str | None = None
    """Set-up hexes, space separated, filled in the order written (a team's cup only;
    a reinforcement's cup enters by the wave's ``hexes``)."""

    @property
    def size(self) -> int:
        """Counters plus dummies."""
        return len(self.counters) + self.dummies


@attrs.frozen
class TeamSpec:
    """A team: Friendly ``able``/``baker``/``charlie``/``com``, or an Enemy colour."""

    id: str
    name: str = ""
    """Display name; empty: from the id (``"Able"``, ``"Command"``, ``"Red"``)."""
    characters: tuple[CharacterSpec, ...] = ()
    alert: bool = False
    """Enemy: starts Alert (True) or Waiting (base-rules §5.6, §20 Q4)."""
    prepared: bool = True
    """Enemy: Prepared or Unprepared (§5.6)."""
    morale: MoraleState | None = None
    """Starting morale of members that give none (default Normal)."""
    elite: bool | None = None
    """Enemy: counters are their SS counterparts (C2 24.0); None: the scenario's ``elite``."""
    revealed: bool | None = None
    """Members start Spotted/Known unless they say otherwise (default Hidden/Unknown)."""
    roll: TeamRoll | None = None
    """Friendly Able/Baker/Charlie: members rolled on the C2 25.0 table instead of ``characters``."""
    hexes: str | None = None
    """Set-up hexes (space separated) for members without a ``hex``, in order, wrapping round."""
    cup: tuple[CupSpec, ...] = ()
    """Enemy: cups of counters and dummies drawn onto set-up hexes."""

    @property
    def display_name(self) -> str:
        """``name``, or the id capitalised."""
        return self.name or TEAM_NAMES.get(self.id, self.id.capitalize())


@attrs.frozen
class DirectionCounterSpec:
    """A Direction Counter: a compass rose on a hex, turned ``rotation`` hexsides clockwise (§6).

    The counter's direction ``d`` points to map direction ``d + rotation`` (mod 6):
    with rotation 5, "5/6" on an Enemy card means map directions 4/5 (down the map).
    """

    hex: str
    rotation: int = 0
    """0–5 hexsides clockwise."""

    def to_map(self, direction: Direction) -> Direction:
        """The map direction (1 up the map, clockwise) that counter direction ``direction`` means."""
        return rotate(direction, self.rotation)


@attrs.frozen
class ReinforcementSpec:
    """A wave of reinforcements: who arrives on which turn, where, and with what order (§5.7)."""

    turn: int
    """The turn they arrive (placed in Step 3 a), base-rules §1)."""
    team: str
    """The team they join or form (a Friendly id or an Enemy colour)."""
    hexes: str
    """Entry hexes, space separated; members take them in order, wrapping round."""
    characters: tuple[CharacterSpec, ...] = ()
    cup: CupSpec | None = None
    """Enemy: counters and dummies drawn at set-up for this wave."""
    order: str | None = None
    """A forced first order: an order code or id and a direction string, e.g. ``"EV 5/6"``."""
    elite: bool | None = None
    """Counters are SS counterparts; None: the team's, else the scenario's."""
    name: str = ""
    """Display name of a new team."""


@attrs.frozen
class EventTables:
    """The variants of the Friendly and Enemy event tables (base-rules §18)."""

    friendly: EventVariant = EventVariant.ATTACKING
    enemy: EventVariant = EventVariant.DEFENDING


@attrs.frozen
class PrisonerRules:
    """Prisoners and capture at the end of the scenario (C2 23.3–23.4)."""

    capture_incapacitated: bool = True
    """C2 23.3: an incapacitated Friendly with no Friendly within ``capture_range`` is captured."""
    capture_range: int = 2
    """Hexes (C2 23.3: 2)."""
    guarded_prisoners: bool = True
    """C2 23.4: a prisoner with a guard in his hex counts as captured."""


@attrs.frozen
class Objective:
    """A hex worth ``vp`` to ``side`` if that side holds it at the end (base-rules §19).

    Held [house]: an active character of the side stands on it and none of the other side.
    """

    hex: str
    vp: int
    name: str = ""
    side: Side = Side.FRIENDLY


@attrs.frozen
class ExitSpec:
    """VP for each character of ``side`` who leaves the map by ``edge`` or from one of ``hexes``."""

    vp: int
    side: Side = Side.FRIENDLY
    edge: MapSide | None = None
    hexes: str | None = None


@attrs.frozen
class VictoryBand:
    """A result for a Friendly VP total of at least ``min_vp`` (None: anything lower)."""

    result: str
    min_vp: int | None = None


STANDARD_BANDS: tuple[VictoryBand, ...] = (
    VictoryBand("superb", 15),
    VictoryBand("good", 12),
    VictoryBand("marginal", 9),
    VictoryBand("not enough", 6),
    VictoryBand("poor", 1),
    VictoryBand("demotion", None),
)
"""The standard VP bands (base-rules §19 [reconstructed]), best first."""


@attrs.frozen
class Victory:
    """How the Friendly VP total is counted (base-rules §19). All values are VP, 0 or more."""

    kill: int = 1
    """Gained per Enemy killed (a Routed enemy who leaves the map counts, §5.7)."""
    leader_kill: int = 2
    """Gained per Enemy leader (LDR 1+) killed, instead of ``kill``."""
    prisoner: int = 1
    """Gained per Enemy prisoner held at the end (C2 23.4)."""
    friendly_killed: int = 1
    """Lost per Friendly killed."""
    friendly_captured: int = 1
    """Lost per Friendly captured (C2 23.3)."""
    objectives: tuple[Objective, ...] = ()
    exits: tuple[ExitSpec, ...] = ()
    bands: tuple[VictoryBand, ...] = STANDARD_BANDS
    """Results best first; the last has no ``min_vp``."""

    def result(self, vp: int) -> str:
        """The band ``vp`` falls in."""
        for band in self.bands:
            if band.min_vp is None or vp >= band.min_vp:
                return band.result
        return self.bands[-1].result


@attrs.frozen
class Edges:
    """Which map side is the Friendly and which the Enemy board edge (C2 31.11.2)."""

    friendly: MapSide = MapSide.SOUTH
    enemy: MapSide = MapSide.NORTH


@attrs.frozen
class PanzerfaustSpec:
    """The Panzerfaust Level and type of a scenario (C2 32.3)."""

    level: int
    type: str = "panzerfaust_60"
    """``panzerfaust_60`` or ``panzerfaust_100``."""


@attrs.frozen
class VehicleSpec:
    """A vehicle at set-up (C2 31.0, 31.3).

    AFV crew seats are filled by drawing crew counters at random per position
    (``crew`` may name counter ids instead, e.g. for the rules' example of
    play). Jeeps, Trucks and Half-Tracks are driven by characters of the
    scenario: ``crew`` maps their positions to character ids, and
    ``passengers`` maps passenger positions (``passenger_3``) to character ids.
    """

    id: str
    type: str
    """Vehicle type id (``cards/vehicles/<type>.yaml``)."""
    side: str
    """``friendly`` or ``enemy``."""
    hex: str
    facing: int
    name: str = ""
    turret: int | None = None
    """Turret facing (AFVs); default the hull facing."""
    loaded: str | None = None
    """The round in the main gun at set-up: ``he``, ``ap`` or none (31.11.3 Loader)."""
    hatches: dict[str, str] = attrs.field(factory=dict)
    """Hatch per position: ``open`` or ``closed`` (default closed for AFVs, 31.8)."""
    crew: dict[str, str] = attrs.field(factory=dict)
    """Position → crew counter id (AFVs) or character id (Jeeps, Trucks, Half-Tracks)."""
    passengers: dict[str, str] = attrs.field(factory=dict)
    """Passenger position → character id."""
    road_orders: bool = False
    """Starts under Road Movement Orders (31.11.1)."""


@attrs.frozen
class Scenario:
    """A scenario as read from its file (keys = field names)."""

    id: str
    name: str
    map: str
    turns: int
    friendly: tuple[TeamSpec, ...]
    enemy: tuple[TeamSpec, ...] = ()
    month: int = 6
    """1–12 (June–August make Fields S terrain, C2 27.8)."""
    weather: Weather = Weather.CLEAR
    ground: Ground = Ground.NORMAL
    night: bool = False
    hand: int = 3
    """Friendly cards in the starting hand (base-rules §18)."""
    elite: bool = False
    """Every Enemy counter is its SS counterpart (C2 24.0) unless a team says otherwise."""
    large_battle: bool = False
    """One Enemy card per team, shared (9.2)."""
    direction_counters: tuple[DirectionCounterSpec, ...] = ()
    wind: int | None = None
    """Direction 1–6 smoke drifts toward (§13); None: rolled on a d6 at set-up."""
    options: dict[str, Any] = attrs.field(factory=dict)
    """House options by name (:class:`~solo.core.options.Options`), e.g. ``optional_enemy_activation``."""
    reinforcements: tuple[ReinforcementSpec, ...] = ()
    vehicles: tuple[VehicleSpec, ...] = ()
    panzerfaust: PanzerfaustSpec | None = None
    """Panzerfausts available to the Enemy (C2 32.3); None = none."""
    events: EventTables = attrs.field(factory=EventTables)
    target_tables: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    """10-hex target tables by side (``friendly``/``enemy``): d10 face 0-9 → the hex off-board fire
    or illumination aimed at that side lands on (base-rules §14, §15, §19). Absent: the
    house default of the effects module."""
    prisoners: PrisonerRules = attrs.field(factory=PrisonerRules)
    victory: Victory = attrs.field(factory=Victory)
    edges: Edges = attrs.field(factory=Edges)
    description: str = ""
    source: str = attrs.field(default="", eq=False)

    def game_options(self, base: Options | None = None) -> Options:
        """``base`` (default the house options) with this scenario's ``options`` applied."""
        return attrs.evolve(base if base is not None else Options(), **self.options)

    @property
    def objectives(self) -> tuple[Hex, ...]:
        """The hexes of the Friendly objectives (``victory.objectives``), in the order written."""
        return tuple(Hex.parse(o.hex) for o in self.victory.objectives if o.side is Side.FRIENDLY)

    def team_spec(self, team_id: str) -> TeamSpec | None:
        """The set-up team ``team_id`` of either side, or None."""
        for t in (*self.friendly, *self.enemy):
            if t.id == team_id:
                return t
        return None

    def is_elite(self, team_id: str) -> bool:
        """Whether ``team_id``'s counters are SS counterparts (C2 24.0)."""
        t = self.team_spec(team_id)
        return t.elite if t is not None and t.elite is not None else self.elite


@attrs.frozen
class ForcedOrder:
    """An order a scenario imposes (reinforcements): order id and optional direction string."""

    order: str
    directions: DirectionString | None = None

    def __str__(self) -> str:
        return self.order + (f" {self.directions}" if self.directions else "")


def parse_forced_order(text: str, orders: OrderTable) -> ForcedOrder:
    """Read ``"EV 5/6"``, ``"evade 5/6"`` or ``"HI"``: an order code or id, then a direction string.

    A move order needs a direction string, any other order takes none (base-rules §6).
    Raises ``ValueError`` naming what is wrong.
    """
    parts = text.split()
    if not parts or len(parts) > 2:
        raise ValueError(f"bad order {text!r} (expected an order code or id and a direction, e.g. 'EV 5/6')")
    o = _find_order(parts[0], orders)
    if o is None:
        codes = sorted({x.code for x in orders if x.code})
        raise ValueError(
            f"unknown order {parts[0]!r} (expected a code of cards/orders.yaml: {', '.join(codes)}, "
            "or an order id)"
        )
    if o.kind.value != "character":
        raise ValueError(f"order {o.id!r} is not a character order")
    moves = any(step.hexes for step in o.steps)
    if len(parts) == 1:
        if moves:
            raise ValueError(f"{o.name} moves: give a direction string, e.g. '{parts[0]} 5/6'")
        return ForcedOrder(o.id)
    if not moves:
        raise ValueError(f"{o.name} does not move: it takes no direction string")
    return ForcedOrder(o.id, DirectionString.parse(parts[1]))


def _find_order(token: str, orders: OrderTable) -> Order | None:
    try:
        return orders.by_code(token.upper())
    except KeyError:
        pass
    return orders.get(token) if token in orders else None


# ---------------------------------------------------------------------------
# Loading and checking


def load_scenario(path: Path | str, data: HouseData, *, characters: CharacterBook | None = None) -> Scenario:
    """Load and check a scenario file (or a shipped scenario by id, ``"first_contact"``).

    ``characters`` defaults to the shipped ``cards/characters.yaml``. Raises
    :class:`~solo.core.errors.DataError` listing every problem with its line: the map,
    hexes off the map or impassable, a unit on an opponent's hex, unknown
    weapons, skills, orders, profiles and counters, duplicate ids, team ids not
    allowed for the side, month, wind and rotation ranges, cups larger than their
    set-up hexes, option names and values.
    """
    p = Path(path)
    if not p.suffix and not p.exists():
        p = maps_dir() / "scenarios" / f"{path}.yaml"
    doc = read(p, display_name(p))
    sc = structure(doc, Scenario)
    _Checker(doc, sc, data, _book_for(data, characters)).run()
    return attrs.evolve(sc, source=doc.name)


def shipped_scenarios() -> list[Path]:
    """Paths of the shipped scenarios, sorted by name."""
    return sorted((maps_dir() / "scenarios").glob("*.yaml"))


_STAT_KEYS = ("name", "tq", "ldr", "weapons", "skills", "mg_role", "trained_medic")
_ENEMY_ONLY_TEAM_KEYS = ("alert", "prepared", "elite", "cup")
_OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "smoke_grenade_timing": ("end_of_turn", "immediate"),
    "oba_model": ("tq_minus_power", "blast_frag"),
}
_OPTION_RANGES: dict[str, tuple[int, int]] = {
    "night_los": (1, 99),
    "medical_aid_range": (0, 1),
    "dummy_tq": (0, 9),
}


class _Checker:
    """The semantic checks of a structured scenario; every problem goes to one bag."""

    def __init__(self, doc: DataFile, sc: Scenario, data: Any, book: CharacterBook) -> None:
        self.doc = doc
        self.sc = sc
        self.data = data
        self.book = book
        self.probs = Problems()
        self.map: MapDef | None = data.maps.get(sc.map)
        self.ids: dict[str, DocPath] = {}
        self.counters: dict[tuple[int, bool], DocPath] = {}
        # hex -> [(side, path, token index or None, label)] of set-up placements
        self.placed: dict[Hex, list[tuple[Side, DocPath, int | None, str]]] = {}

    def add(self, path: DocPath, message: str, *, at_key: bool = False) -> None:
        self.probs.add(self.doc, path, message, at_key=at_key)

    def add_token(self, path: DocPath, k: int | None, message: str) -> None:
        if k is None:
            self.add(path, message)
        else:
            self.probs.items.append(self.doc.token_problem(path, k, message))

    def raw(self, path: DocPath) -> Any:
        """The unstructured node at ``path`` (None if absent)."""
        node = self.doc.data
        for step in path:
            if (isinstance(node, dict) and step in node) or (
                isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
            ):
                node = node[step]
            else:
                return None
        return node

    def has_key(self, path: DocPath, key: str) -> bool:
        node = self.raw(path)
        return isinstance(node, dict) and key in node

    # -- the checks ----------------------------------------------------------

    def character_ids(self) -> Iterator[tuple[DocPath, str]]:
        """Every character id of the scenario with its path: the teams', then the reinforcements'."""
        sc = self.sc
        for key, teams in (("friendly", sc.friendly), ("enemy", sc.enemy)):
            for i, team in enumerate(teams):
                for j, c in enumerate(team.characters):
                    yield (key, i, "characters", j, "id"), c.id
        for i, wave in enumerate(sc.reinforcements):
            for j, c in enumerate(wave.characters):
                yield ("reinforcements", i, "characters", j, "id"), c.id

    def run(self) -> None:
        sc = self.sc
        self.ids = check_unique(
            self.probs, self.doc, self.character_ids(), "duplicate character id {id!r} (first on line {line})"
        )
        self.check_top()
        self.check_options()
        for side, key, teams in ((Side.FRIENDLY, "friendly", sc.friendly), (Side.ENEMY, "enemy", sc.enemy)):
            if not teams and not any(v.side == side.value for v in sc.vehicles):
                self.add((key,), f"the {side.value} side has no team and no vehicle")
            check_unique(
                self.probs,
                self.doc,
                [((key, i, "id"), team.id) for i, team in enumerate(teams)],
                "team {id!r} given twice (also entry {index})",
            )
            for i, team in enumerate(teams):
                self.check_team(side, (key, i), team)
        for i, wave in enumerate(sc.reinforcements):
            self.check_wave(("reinforcements", i), wave)
        for i, v in enumerate(sc.vehicles):
            self.check_vehicle(("vehicles", i), v)
        if sc.panzerfaust is not None:
            if sc.panzerfaust.level < 0:
                self.add(("panzerfaust", "level"), "the Panzerfaust Level is 0 or more")
            if sc.panzerfaust.type not in ("panzerfaust_60", "panzerfaust_100"):
                self.add(("panzerfaust", "type"), "type is panzerfaust_60 or panzerfaust_100")
        self.check_opponents()
        self.check_victory()
        self.probs.raise_if_any()

    def check_top(self) -> None:
        sc, data = self.sc, self.data
        if not SNAKE_ID.match(sc.id):
            self.add(("id",), f"scenario id {sc.id!r} must be snake_case")
        if self.map is None:
            known = ", ".join(sorted(data.maps))
            self.add(("map",), f"unknown map {sc.map!r} (expected one of: {known})")
        if not 1 <= sc.month <= 12:
            self.add(("month",), f"month {sc.month} outside 1-12")
        if not 1 <= sc.turns <= MAX_TURNS:
            self.add(("turns",), f"turns {sc.turns} outside 1-{MAX_TURNS}")
        if not 1 <= sc.hand <= MAX_HAND:
            self.add(("hand",), f"starting hand {sc.hand} outside 1-{MAX_HAND} (the hand limit, §18)")
        if sc.wind is not None and not 1 <= sc.wind <= 6:
            self.add(("wind",), f"wind {sc.wind} is not a direction 1-6 (omit it to roll a d6)")
        for i, dc in enumerate(sc.direction_counters):
            self.check_hex(("direction_counters", i, "hex"), dc.hex, passable=False)
            if not 0 <= dc.rotation <= 5:
                self.add(("direction_counters", i, "rotation"), f"rotation {dc.rotation} outside 0-5")
        if sc.edges.friendly == sc.edges.enemy:
            self.add(("edges",), f"the Friendly and Enemy edges are both {sc.edges.friendly.value}")
        for key, hexes in sc.target_tables.items():
            if key not in ("friendly", "enemy"):
                self.add(("target_tables", key), f"{key!r} is not a side (friendly or enemy)", at_key=True)
            if len(hexes) != 10:
                self.add(("target_tables", key), f"a target table has 10 hexes (d10 0-9), not {len(hexes)}")
            for k, text in enumerate(hexes):
                self.check_hex(("target_tables", key, k), text, passable=False)
        if sc.prisoners.capture_range < 0:
            self.add(("prisoners", "capture_range"), "capture_range must be 0 or more")

    def check_options(self) -> None:
        if not self.sc.options:
            return
        try:
            opts = structure(self.doc, Options, at=("options",))
        except DataError as exc:
            self.probs.extend(list(exc.problems))
            return
        for name, choices in _OPTION_CHOICES.items():
            if name in self.sc.options and getattr(opts, name) not in choices:
                self.add(
                    ("options", name),
                    f"option {name} {getattr(opts, name)!r} (expected one of: {', '.join(choices)})",
                )
        for name, (lo, hi) in _OPTION_RANGES.items():
            if name in self.sc.options and not lo <= getattr(opts, name) <= hi:
                self.add(("options", name), f"option {name} {getattr(opts, name)} outside {lo}-{hi}")

    def check_team(self, side: Side, where: DocPath, team: TeamSpec) -> None:
        allowed = FRIENDLY_TEAMS if side is Side.FRIENDLY else ENEMY_TEAMS
        if team.id not in allowed:
            self.add(
                (*where, "id"),
                f"team {team.id!r} is not a {side.value} team (expected one of: {', '.join(allowed)})",
            )
        if side is Side.FRIENDLY:
            for key in _ENEMY_ONLY_TEAM_KEYS:
                if self.has_key(where, key):
                    self.add((*where, key), f"{key!r} is for Enemy teams only", at_key=True)
        hexes = self.check_hex_list((*where, "hexes"), team.hexes, side=side, label=f"team {team.id}")
        if team.roll is not None:
            if side is not Side.FRIENDLY or team.id not in ROLLED_TEAMS:
                self.add((*where, "roll"), "only the Friendly able, baker and charlie are rolled (C2 25.0)")
            if team.characters:
                self.add(
                    (*where, "characters"), "a rolled team takes its members from the table: no characters"
                )
            if team.hexes is None:
                self.add((*where, "roll"), 'a rolled team needs set-up hexes (hexes: "15.16 14.16")')
        elif not team.characters and not team.cup:
            self.add(where, f"team {team.id!r} has no characters" + (" or cup" if side is Side.ENEMY else ""))
        elite = team.elite if team.elite is not None else self.sc.elite
        for j, c in enumerate(team.characters):
            self.check_character(side, (*where, "characters", j), c, elite=elite, team_hexes=hexes)
        cup_hexes: dict[Hex, DocPath] = {}
        for j, cup in enumerate(team.cup):
            self.check_cup(side, (*where, "cup", j), cup, elite=elite, team=team.id, used=cup_hexes)

    def check_character(
        self,
        side: Side,
        where: DocPath,
        c: CharacterSpec,
        *,
        elite: bool,
        team_hexes: list[Hex | None] | None,
        reinforcement: bool = False,
    ) -> None:
        if not SNAKE_ID.match(c.id):
            self.add((*where, "id"), f"character id {c.id!r} must be snake_case (e.g. able_1)")
        given = [k for k in _STAT_KEYS if self.has_key(where, k)]
        counter = c.counter
        if side is Side.FRIENDLY:
            counter = None
            for key in ("counter", "dummy"):
                if self.has_key(where, key):
                    self.add((*where, key), f"{key!r} is for Enemy characters only", at_key=True)
        elif c.profile is not None:
            self.add((*where, "profile"), "profiles are Friendly; an Enemy takes a counter number")
        if c.dummy and side is Side.ENEMY:
            for k in given:
                self.add((*where, k), "a dummy has no values", at_key=True)
        elif c.profile is not None:
            if self.book.profile(c.profile) is None:
                self.add((*where, "profile"), f"unknown profile {c.profile!r} (not in {self.book.source})")
            for k in given:
                self.add(
                    (*where, k), f"{k!r} comes from profile {c.profile!r}: give one or the other", at_key=True
                )
        elif counter is not None and c.tq is None:
            self.check_counter((*where, "counter"), counter, elite=elite)
            for k in given:
                self.add(
                    (*where, k),
                    f"counter {counter} takes its values from {self.book.source} "
                    f"(write tq, name and weapons to give your own)",
                    at_key=True,
                )
        else:
            if c.tq is None:
                self.add(where, "give tq, name and weapons (or a profile, or an Enemy counter number)")
            if not c.name:
                self.add(where, "a character written out needs a name")
            _check_stats(self.doc, self.probs, where, c, self.data.weapons)
            if counter is not None and not 1 <= counter <= 21:
                self.add((*where, "counter"), f"counter {counter} outside 1-21")
        if c.hex is not None:
            h = self.check_hex((*where, "hex"), c.hex)
            if h is not None and not reinforcement:
                self.placed.setdefault(h, []).append((side, (*where, "hex"), None, c.name or c.id))
        elif not reinforcement and not team_hexes:
            self.add(where, f"{c.id}: no starting hex (give hex, or hexes on the team)")

    def check_counter(self, path: DocPath, n: int, *, elite: bool, k: int | None = None) -> None:
        if not 1 <= n <= 21:
            self.add_token(path, k, f"counter {n} outside 1-21")
            return
        if self.book.counter(n, elite=elite) is None:
            kind = "elite counter" if elite else "counter"
            self.add_token(path, k, f"{kind} {n} has no profile in {self.book.source}")
        key = (n, elite)
        if key in self.counters:
            line = self.doc.line_of(self.counters[key])
            self.add_token(path, k, f"counter {n} is used twice (also on line {line})")
        else:
            self.counters[key] = path if k is None else (*path, k)

    def check_cup(
        self,
        side: Side,
        where: DocPath,
        cup: CupSpec,
        *,
        elite: bool,
        team: str,
        used: dict[Hex, DocPath],
        wave: bool = False,
    ) -> None:
        if side is Side.FRIENDLY:
            self.add(where, "cups are for Enemy teams only")
            return
        for k, n in enumerate(cup.counters):
            self.check_counter((*where, "counters", k), n, elite=elite)
        if cup.dummies < 0:
            self.add((*where, "dummies"), "dummies must be 0 or more")
        if cup.size <= 0:
            self.add(where, "an empty cup (give counters and/or dummies)")
        if wave:
            if cup.hexes is not None:
                self.add((*where, "hexes"), "a reinforcement's cup enters by the wave's hexes", at_key=True)
            return
        if cup.hexes is None:
            self.add(where, 'a cup needs its set-up hexes (hexes: "15.06 14.07 ...")')
            return
        hexes = self.check_hex_list((*where, "hexes"), cup.hexes, side=side, label=f"cup of team {team}")
        for k, h in enumerate(hexes):
            if h is None:
                continue
            if h in used:
                self.add_token((*where, "hexes"), k, f"hex {h} is a set-up hex twice (one counter per hex)")
            used[h] = (*where, "hexes")
        if cup.size > len(hexes):
            self.add(
                where,
                f"the cup holds {len(cup.counters)} counters and {max(cup.dummies, 0)} dummies but has only "
                f"{len(hexes)} set-up hexes (one counter per hex)",
            )

    def check_wave(self, where: DocPath, wave: ReinforcementSpec) -> None:
        sc = self.sc
        if not 1 <= wave.turn <= sc.turns:
            self.add((*where, "turn"), f"turn {wave.turn} outside 1-{sc.turns}")
        if wave.team in FRIENDLY_TEAMS:
            side = Side.FRIENDLY
        elif wave.team in ENEMY_TEAMS:
            side = Side.ENEMY
        else:
            self.add(
                (*where, "team"),
                f"team {wave.team!r} is neither a Friendly team ({', '.join(FRIENDLY_TEAMS)}) "
                f"nor an Enemy colour ({', '.join(ENEMY_TEAMS)})",
            )
            side = Side.ENEMY
        if side is Side.FRIENDLY and wave.elite is not None:
            self.add((*where, "elite"), "'elite' is for Enemy reinforcements", at_key=True)
        entry = self.check_hex_list((*where, "hexes"), wave.hexes, side=None, label="")
        if not wave.characters and wave.cup is None:
            self.add(where, "a reinforcement needs characters or a cup")
        elite = wave.elite if wave.elite is not None else sc.is_elite(wave.team)
        for j, c in enumerate(wave.characters):
            self.check_character(
                side,
                (*where, "characters", j),
                c,
                elite=elite,
                team_hexes=entry,
                reinforcement=True,
            )
        if wave.cup is not None:
            self.check_cup(side, (*where, "cup"), wave.cup, elite=elite, team=wave.team, used={}, wave=True)
        if wave.order is not None:
            try:
                parse_forced_order(wave.order, self.data.orders)
            except ValueError as exc:
                self.add((*where, "order"), str(exc))

    def check_vehicle(self, where: DocPath, v: VehicleSpec) -> None:
        """A vehicle: known type, side, hex on the map and enterable, facing, seats and crew (C2 31)."""
        types = getattr(self.data, "vehicles", None)
        if v.id in self.ids:
            self.add((*where, "id"), f"id {v.id!r} is already used")
        self.ids[v.id] = (*where, "id")
        if v.side not in ("friendly", "enemy"):
            self.add((*where, "side"), f"side must be friendly or enemy, got {v.side!r}")
        if not 1 <= v.facing <= 6:
            self.add((*where, "facing"), f"facing is a direction 1-6, got {v.facing}")
        if v.turret is not None and not 1 <= v.turret <= 6:
            self.add((*where, "turret"), f"turret is a direction 1-6, got {v.turret}")
        if v.loaded not in (None, "he", "ap"):
            self.add((*where, "loaded"), f"loaded must be he or ap, got {v.loaded!r}")
        if types is None or v.type not in types:
            known = ", ".join(t.id for t in types) if types is not None else ""
            self.add((*where, "type"), f"unknown vehicle type {v.type!r} (expected one of: {known})")
            return
        vtype = types.get(v.type)
        try:
            h = Hex.parse(v.hex)
        except GeometryError as exc:
            self.add((*where, "hex"), str(exc))
            h = None
        if h is not None and self.map is not None:
            if not self.map.has_hex(h):
                self.add((*where, "hex"), f"hex {v.hex} is not on map {self.sc.map!r}")
            else:
                terrain = self.data.terrain[self.map.terrain[h]]
                wheeled = vtype.kind.value in ("jeep", "truck")
                if terrain.vehicles.value == "impassable" or (wheeled and not terrain.wheeled_passable):
                    self.add(
                        (*where, "hex"), f"a {vtype.kind.value} cannot stand in {terrain.name} ({v.hex})"
                    )
        positions = {
            p.id: p for p in (*vtype.crew, *vtype.passengers, *((vtype.cupola,) if vtype.cupola else ()))
        }
        for pos, state in v.hatches.items():
            if pos not in positions or not positions[pos].hatch:
                self.add((*where, "hatches", pos), f"{vtype.name} has no hatch at {pos!r}", at_key=True)
            elif state not in ("open", "closed"):
                self.add((*where, "hatches", pos), f"a hatch is open or closed, got {state!r}")
        afv = vtype.kind.value == "afv"
        crews = getattr(self.data, "crews", None)
        for pos, who in v.crew.items():
            if pos not in positions or positions[pos].role is None:
                self.add((*where, "crew", pos), f"{vtype.name} has no crew position {pos!r}", at_key=True)
                continue
            if afv:
                try:
                    counter = crews.get(who) if crews is not None else None
                except KeyError:
                    counter = None
                if counter is None:
                    self.add((*where, "crew", pos), f"unknown crew counter {who!r} (cards/crews.yaml)")
                elif counter.role.value != pos:
                    self.add((*where, "crew", pos), f"{who} is a {counter.role.value} counter, not a {pos}")
            elif who not in self.ids:
                self.add(
                    (*where, "crew", pos),
                    f"unknown character {who!r} (a Jeep/Truck/Half-Track is "
                    "driven by a scenario character, C2 31.3)",
                )
        for pos, who in v.passengers.items():
            if pos not in positions or positions[pos].role is not None:
                self.add(
                    (*where, "passengers", pos),
                    f"{vtype.name} has no passenger position {pos!r}",
                    at_key=True,
                )
            elif afv:
                self.add((*where, "passengers", pos), "no Character may ride on an AFV (C2 31.3)")
            elif who not in self.ids:
                self.add((*where, "passengers", pos), f"unknown character {who!r}")

    def check_victory(self) -> None:
        v = self.sc.victory
        for key in ("kill", "leader_kill", "prisoner", "friendly_killed", "friendly_captured"):
            if getattr(v, key) < 0:
                self.add(("victory", key), f"{key} is VP and must be 0 or more (losses are subtracted)")
        for i, obj in enumerate(v.objectives):
            self.check_hex(("victory", "objectives", i, "hex"), obj.hex, passable=False)
        for i, ex in enumerate(v.exits):
            where = ("victory", "exits", i)
            if (ex.edge is None) == (ex.hexes is None):
                self.add(where, "an exit names an edge or hexes (one of them)")
            self.check_hex_list((*where, "hexes"), ex.hexes, side=None, label="", passable=False)
        if not v.bands:
            self.add(("victory", "bands"), "no victory bands")
            return
        last = None
        for i, band in enumerate(v.bands):
            where = ("victory", "bands", i)
            final = i == len(v.bands) - 1
            if band.min_vp is None and not final:
                self.add(where, "only the last band may have no min_vp")
            if band.min_vp is not None and last is not None and band.min_vp >= last:
                self.add((*where, "min_vp"), "bands must be written best first (min_vp falling)")
            if band.min_vp is not None:
                last = band.min_vp
        if v.bands[-1].min_vp is not None:
            self.add(
                ("victory", "bands", len(v.bands) - 1), "the last band must have no min_vp (anything lower)"
            )

    def check_opponents(self) -> None:
        """No unit may start on a hex an opponent starts on (set-up, base-rules §19)."""
        for h, entries in self.placed.items():
            sides = {e[0] for e in entries}
            if len(sides) < 2:
                continue
            for side, path, k, _label in entries:
                others = [lab for s, _p, _k, lab in entries if s is not side]
                self.add_token(
                    path,
                    k,
                    f"hex {h} holds an opponent at set-up ({', '.join(others)}): "
                    "the two sides may not start in one hex",
                )

    # -- hexes -----------------------------------------------------------------

    def check_hex(
        self, path: DocPath, text: str, *, k: int | None = None, passable: bool = True
    ) -> Hex | None:
        """The hex ``text`` if it is well formed, on the map and (``passable``) enterable."""
        try:
            h = Hex.parse(text)
        except GeometryError as exc:
            self.add_token(path, k, str(exc))
            return None
        m = self.map
        if m is None:
            return h
        if not m.has_hex(h):
            self.add_token(path, k, f"hex {text} is not on map {m.id!r}")
            return None
        if passable:
            blocked = self.impassable(h)
            if blocked:
                self.add_token(path, k, f"hex {text} is {blocked}: characters cannot enter it")
                return None
        return h

    def impassable(self, h: Hex) -> str:
        """The name of what keeps characters out of ``h`` (``character_passable``), or ''."""
        table = self.data.terrain
        assert self.map is not None
        for tid in (self.map.terrain[h], *self.map.overlays.get(h, ())):
            t = table[tid]
            if not t.character_passable:
                return t.name
        return ""

    def check_hex_list(
        self,
        path: DocPath,
        text: str | None,
        *,
        side: Side | None,
        label: str,
        passable: bool = True,
    ) -> list[Hex | None]:
        """Each hex of a space-separated list (None where bad); set-up hexes of ``side`` are recorded."""
        if text is None:
            return []
        out: list[Hex | None] = []
        tokens = text.split()
        if not tokens:
            self.add(path, "no hexes given")
        for k, tok in enumerate(tokens):
            h = self.check_hex(path, tok, k=k, passable=passable)
            out.append(h)
            if h is not None and side is not None:
                self.placed.setdefault(h, []).append((side, path, k, label))
        return out
