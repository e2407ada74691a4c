"""Scenarios (``maps/scenarios/*.yaml``): the set-up of a game, and the initial :class:`GameState`.

A scenario names its map, month, weather and ground (C2 28), turn limit and
starting hand, the Friendly squad by team, the Enemy teams by colour, and the
Direction Counters. See the shipped scenarios for the format; every problem is
reported with its line.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from solo.datafile import Problems, read, structure
from solo.errors import GeometryError
from solo.hexes import Hex
from solo.resources import display_name, maps_dir
from solo.state import CarriedWeapon, Character, GameState, Side, Team
from solo.tables import MoraleState

if TYPE_CHECKING:
    from solo.data import HouseData
    from solo.dice import Dice


@attrs.frozen
class WeaponSpec:
    """A weapon and the character's WS for it (``{weapon: m1_garand, ws: 5}``)."""

    weapon: str
    ws: int


@attrs.frozen
class CharacterSpec:
    """One character of a scenario's roster."""

    id: str
    name: str
    tq: int
    weapons: tuple[WeaponSpec, ...] = ()
    ldr: int = 0
    skills: tuple[str, ...] = ()
    hex: str | None = None
    """Starting hex ``CC.RR`` (None: off map, e.g. a reinforcement)."""
    revealed: bool = False
    """Friendly: starts Spotted. Enemy: starts Known."""
    morale: MoraleState = MoraleState.NORMAL
    mg_role: str | None = None
    trained_medic: bool = False
    dummy: bool = False
    counter: int | None = None


@attrs.frozen
class TeamSpec:
    """A team: Friendly ``able``/``baker``/``charlie``/``com``, or an Enemy colour."""

    id: str
    name: str
    characters: tuple[CharacterSpec, ...]
    alert: bool = False
    """Enemy: starts Alert (True) or Waiting (base-rules §5.6, §20 Q4)."""
    prepared: bool = True
    """Enemy: Prepared or Unprepared (§5.6)."""


@attrs.frozen
class DirectionCounterSpec:
    """A Direction Counter: a compass rose on a hex, turned ``rotation`` hexsides clockwise (§6)."""

    hex: str
    rotation: int = 0


@attrs.frozen
class Scenario:
    """A scenario as read from its file."""

    id: str
    name: str
    map: str
    turns: int
    friendly: tuple[TeamSpec, ...]
    enemy: tuple[TeamSpec, ...]
    month: int = 6
    weather: str = "clear"
    ground: str = "normal"
    night: bool = False
    hand: int = 3
    large_battle: bool = False
    direction_counters: tuple[DirectionCounterSpec, ...] = ()
    wind: int | None = None
    options: dict[str, Any] = attrs.field(factory=dict)
    description: str = ""
    source: str = attrs.field(default="", eq=False)


def load_scenario(path: Path | str, data: HouseData) -> Scenario:
    """Load and check a scenario file (or a shipped scenario by id).

    Raises :class:`~solo.errors.DataError` listing every problem with its line.
    """
    p = Path(path)
    if not p.suffix and not p.exists():
        p = maps_dir() / "scenarios" / f"{path}.yaml"
    doc = read(p, display_name(p))
    sc = structure(doc, Scenario)
    probs = Problems()
    if sc.map not in data.maps:
        probs.add(doc, ("map",), f"unknown map {sc.map!r} (expected one of: {', '.join(sorted(data.maps))})")
    m = data.maps.get(sc.map)
    for side, teams in (("friendly", sc.friendly), ("enemy", sc.enemy)):
        for i, team in enumerate(teams):
            for j, ch in enumerate(team.characters):
                where = (side, i, "characters", j)
                for k, w in enumerate(ch.weapons):
                    if w.weapon not in data.weapons:
                        probs.add(doc, (*where, "weapons", k, "weapon"), f"unknown weapon {w.weapon!r}")
                if ch.hex is not None and m is not None:
                    try:
                        h = Hex.parse(ch.hex)
                    except GeometryError as exc:
                        probs.add(doc, (*where, "hex"), str(exc))
                        continue
                    if not m.has_hex(h):
                        probs.add(doc, (*where, "hex"), f"hex {ch.hex} is not on map {sc.map!r}")
    probs.raise_if_any()
    return attrs.evolve(sc, source=doc.name)


def shipped_scenarios() -> list[Path]:
    """Paths of the shipped scenarios, sorted by name."""
    return sorted((maps_dir() / "scenarios").glob("*.yaml"))


def build_state(scenario: Scenario, data: HouseData, dice: Dice, game: Any = None) -> GameState:
    """The initial :class:`GameState` of ``scenario`` (characters placed, teams formed)."""
    characters: dict[str, Character] = {}
    teams: dict[str, Team] = {}
    for side, specs in ((Side.FRIENDLY, scenario.friendly), (Side.ENEMY, scenario.enemy)):
        for t in specs:
            team = Team(t.id, side, t.name)
            for c in t.characters:
                ch = Character(
                    id=c.id,
                    name=c.name,
                    side=side,
                    team=t.id,
                    tq=c.tq,
                    ldr=c.ldr,
                    weapons=tuple(CarriedWeapon(w.weapon, w.ws) for w in c.weapons),
                    skills=c.skills,
                    hex=Hex.parse(c.hex) if c.hex else None,
                    morale=c.morale,
                    revealed=c.revealed,
                    alert=True if side is Side.FRIENDLY else t.alert,
                    prepared=t.prepared,
                    dummy=c.dummy,
                    mg_role=c.mg_role,
                    trained_medic=c.trained_medic,
                    counter=c.counter,
                )
                characters[ch.id] = ch
                team.members.append(ch.id)
            teams[team.id] = team
    return GameState(
        characters=characters,
        teams=teams,
        weather=scenario.weather,
        ground=scenario.ground,
        wind=scenario.wind or 1,
    )
