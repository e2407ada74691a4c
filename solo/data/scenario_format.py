"""Scenarios as written (``maps/scenarios/*.yaml``): :class:`Scenario`, the set-up of a game.

A scenario names its map, month, weather and ground (C2 28.1–28.2), night, turn limit and
starting hand; the Friendly squad by team (Able, Baker, Charlie, COM: characters written out,
taken from a house profile, or rolled on the C2 25.0 New Character Selection Table); the Enemy
teams by colour (characters placed by hand or counters drawn from cups with dummies; Waiting or
Alert, Prepared or Unprepared, morale, elite SS counterparts of C2 24.0); vehicles (C2 31);
large battle (9.2), house options, Direction Counters, wind, reinforcements and their forced
orders (§5.7), event tables, prisoner and capture rules (C2 23.3–23.4), victory points and
board edges (§19). The shipped scenarios are the worked examples of the format; their comments
explain every section.

:func:`solo.data.scenario.load_scenario` reads and checks a file;
:func:`solo.rules.setup.build_state` turns a scenario into the initial game state.

May import: :mod:`solo.core`, :mod:`solo.data.cards` (direction strings), :mod:`solo.data.tables`
(Morale States), :mod:`solo.data.characters`, :mod:`solo.data.orders` (forced orders).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.bounds import COUNT, COUNTER, DIRECTION, LDR, MONTH, PF_LEVEL, RANGE, TQ, TURN, VP, VP_TOTAL
from solo.core.datafile import converter, str_enum_hook
from solo.core.hexes import Direction, Hex, rotate
from solo.core.options import Options
from solo.core.sides import Side
from solo.data.cards import DirectionString
from solo.data.characters import MgRole, Skill, WeaponSpec
from solo.data.tables import MoraleState

if TYPE_CHECKING:
    from solo.data.orders import Order, OrderTable


FRIENDLY_TEAMS: tuple[str, ...] = ("able", "baker", "charlie", "com")
"""Team ids a Friendly team may take (base-rules §2; COM is the C2 25.0 Command team)."""
ENEMY_TEAMS: tuple[str, ...] = ("blue", "red", "yellow", "white", "teal", "purple")
"""Team ids (colours) an Enemy team may take (base-rules §2)."""


TEAM_NAMES: dict[str, str] = {"com": "Command"}
"""Display names that are not the id capitalised."""


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


for _cls in (Weather, Ground, MapSide, TeamRoll, EventVariant):
    converter.register_structure_hook(_cls, str_enum_hook)


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
    tq: TQ | None = None
    weapons: tuple[WeaponSpec, ...] = ()
    ldr: LDR = 0
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
    counter: COUNTER | None = None
    """Enemy counter number 1–21 (C2 24.0)."""
    profile: str | None = None
    """A Friendly profile id of ``cards/characters.yaml`` (``"sgt_taylor"``)."""


@attrs.frozen
class CupSpec:
    """Counters and dummies drawn at random at set-up, one per set-up hex, Unknown (base-rules §19)."""

    counters: tuple[COUNTER, ...] = ()
    """Enemy counter numbers 1–21 (profiles in ``cards/characters.yaml``)."""
    dummies: COUNT = 0
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
    rotation: DIRECTION = 0
    """0–5 hexsides clockwise."""

    def to_map(self, direction: Direction) -> Direction:
        """The map direction (1 up the map, clockwise) that counter direction ``direction`` means."""
        return rotate(direction, self.rotation)


@attrs.frozen
class ReinforcementSpec:
    """A wave of reinforcements: who arrives on which turn, where, and with what order (§5.7)."""

    team: str
    """The team they join or form (a Friendly id or an Enemy colour)."""
    hexes: str
    """Entry hexes, space separated; members take them in order, wrapping round."""
    turn: TURN | None = None
    """The turn they arrive (placed in Step 3 a), base-rules §1). None for an ``event`` wave."""
    event: bool = False
    """§18: the wave waits for a ``reinforcements`` entry of its side's Event table and arrives in
    the next Step 3 a) after it is rolled (waves of a side are called in the order written)."""
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
    capture_range: RANGE = 2
    """Hexes (C2 23.3: 2)."""
    guarded_prisoners: bool = True
    """C2 23.4: a prisoner with a guard in his hex counts as captured."""


@attrs.frozen
class Objective:
    """A hex worth ``vp`` to ``side`` if that side holds it at the end (base-rules §19).

    Held [house]: an active character of the side stands on it and none of the other side.
    """

    hex: str
    vp: VP
    name: str = ""
    side: Side = Side.FRIENDLY


@attrs.frozen
class ExitSpec:
    """VP for each character of ``side`` who leaves the map by ``edge`` or from one of ``hexes``."""

    vp: VP
    side: Side = Side.FRIENDLY
    edge: MapSide | None = None
    hexes: str | None = None


@attrs.frozen
class VictoryBand:
    """A result for a Friendly VP total of at least ``min_vp`` (None: anything lower)."""

    result: str
    min_vp: VP_TOTAL | None = None


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

    kill: VP = 1
    """Gained per Enemy killed (a Routed enemy who leaves the map counts, §5.7)."""
    leader_kill: VP = 2
    """Gained per Enemy leader (LDR 1+) killed, instead of ``kill``."""
    prisoner: VP = 1
    """Gained per Enemy prisoner held at the end (C2 23.4)."""
    friendly_killed: VP = 1
    """Lost per Friendly killed."""
    friendly_captured: VP = 1
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

    level: PF_LEVEL
    type: str = "panzerfaust_60"
    """``panzerfaust_60`` or ``panzerfaust_100``."""


@attrs.frozen
class BarrageSpec:
    """A scenario barrage (base-rules §14 special rules): off-board fire called at the start of
    ``turn`` on the ``at`` side's target table; the rounds scatter and explode in Step 5 a)."""

    turn: TURN
    at: Side
    """The side the rounds fall on (its target table)."""
    calibre: str
    """``60mm``, ``81mm`` or ``105mm``."""
    rounds: str = "d6"
    """``d6``, ``d10`` (a 0 is none) or a fixed number, e.g. ``"3"``."""


@attrs.frozen
class OverlaySpec:
    """Terrain the scenario lays over its map, as a special rule (C2 27.4: "Trenches are usually
    placed via a scenario special rule"): an overlay terrain id (``trench``, ``foxhole``,
    ``barbed_wire``, ...) on each of ``hexes`` (space separated)."""

    feature: str
    hexes: str


@attrs.frozen
class C4Spec:
    """C4 (base-rules §14 special rules): each carrier (a character id) who starts the End Phase in
    one of ``hexes``, active and with no opponent there, sets his one charge in that hex."""

    carriers: tuple[str, ...]
    hexes: str


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
    facing: DIRECTION
    name: str = ""
    turret: DIRECTION | None = None
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
    wrecked: bool = False
    """Set up destroyed, a wreck with no crew or passengers: it never moves or fires, and is terrain
    (C2 27.9, with the house option ``wreck_cover``)."""


REQUIRED_SECTIONS: dict[str, str] = {
    "victory": "how the Friendly VP are counted and the bands that decide the result, base-rules §21",
}
"""The sections a scenario file must hold although their fields have defaults, with why; a file
without one is refused at the line where it should be (:mod:`solo.data.scenario_needs`)."""


@attrs.frozen
class Scenario:
    """A scenario as read from its file (keys = field names)."""

    id: str
    name: str
    map: str
    turns: TURN
    friendly: tuple[TeamSpec, ...]
    enemy: tuple[TeamSpec, ...] = ()
    month: MONTH = 6
    """1–12 (June–August make Fields S terrain, C2 27.8)."""
    weather: Weather = Weather.CLEAR
    ground: Ground = Ground.NORMAL
    night: bool = False
    hand: COUNT = 3
    """Friendly cards in the starting hand (base-rules §18)."""
    elite: bool = False
    """Every Enemy counter is its SS counterpart (C2 24.0) unless a team says otherwise."""
    large_battle: bool = False
    """One Enemy card per team, shared (9.2)."""
    direction_counters: tuple[DirectionCounterSpec, ...] = ()
    wind: DIRECTION | None = None
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
    first_orders: tuple[str, ...] = ()
    """§5.3 step 4 [reconstructed]: a d10 first-order table, ten forced orders (face 0-9, written as
    a reinforcement's ``order``: ``"AF"``, ``"SN 5/6"``). An Alert Enemy's first order on turn 1,
    and a reinforcement's on the turn it arrives (without a forced order), is the entry rolled
    instead of a card (:mod:`solo.enemy.first_orders`). Empty: no table."""
    building_aimed_fire: bool = False
    """§5.3 step 4 [reconstructed]: an Alert Enemy in a Building hex who sees a Spotted Friendly
    takes a TQC before drawing; passed, Aimed Fire with no card."""
    barrages: tuple[BarrageSpec, ...] = ()
    """§14 special rules: timed barrages (:class:`BarrageSpec`)."""
    c4: C4Spec | None = None
    """§14 special rules: who carries C4 and where it may be set (:class:`C4Spec`)."""
    overlays: tuple[OverlaySpec, ...] = ()
    """Special rules: overlays (trenches, foxholes, wire) added to the map for this scenario
    (:class:`OverlaySpec`, C2 27.4); the map file is unchanged."""
    minefields: str = ""
    """C2 31.5: the minefield hexes, space separated (``"12.04 12.05"``), added to the map's own
    (``minefields:`` of the map); a vehicle entering one rolls on the 31.5 tables, a man on foot as
    the option ``minefield_men`` says. Empty: only the map's."""
    fires: str = ""
    """C2 29.0 (a scenario-specific rule): the hexes burning at set-up, space separated
    (``"24.03 23.07"``), each a Fire marker (not yet Raging) placed before turn 1, so it wounds,
    smokes and rolls for growth (29.3) from the end of turn 1. Each hex must hold terrain that
    burns (a kindling value, C2 29.2) and nobody may be set up in it. Empty: none."""
    prisoners: PrisonerRules = attrs.field(factory=PrisonerRules)
    victory: Victory = attrs.field(factory=Victory)
    edges: Edges = attrs.field(factory=Edges)
    description: str = ""
    source: str = attrs.field(default="", eq=False)
    map_def: Any = attrs.field(default=None, eq=False, repr=False)
    """The :class:`~solo.data.maps.MapDef` of a map given by path (``map: mytown.yaml``, relative
    to the scenario file), loaded by :func:`~solo.data.scenario.load_scenario`; None for a map
    id of the card set's maps. Not a key of the file."""

    def map_of(self, maps: Mapping[str, Any]) -> Any:
        """The scenario's :class:`~solo.data.maps.MapDef`: its own map file, else ``maps[self.map]``.

        Raises KeyError for a map id not in ``maps`` (a scenario that was not checked).
        """
        return self.map_def if self.map_def is not None else maps[self.map]

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


__all__ = [
    "ENEMY_TEAMS",
    "FRIENDLY_TEAMS",
    "REQUIRED_SECTIONS",
    "STANDARD_BANDS",
    "CharacterSpec",
    "CupSpec",
    "DirectionCounterSpec",
    "Edges",
    "EventTables",
    "EventVariant",
    "ExitSpec",
    "ForcedOrder",
    "Ground",
    "MapSide",
    "Objective",
    "PrisonerRules",
    "ReinforcementSpec",
    "Scenario",
    "TeamRoll",
    "TeamSpec",
    "Victory",
    "VictoryBand",
    "Weather",
    "parse_forced_order",
]
