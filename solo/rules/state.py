"""The one mutable aggregate of a game: :class:`GameState` and the characters in it.

Everything that changes during a game lives here; definitions (cards, tables,
maps) are frozen and shared through :class:`~solo.data.house.HouseData`. Flow state
(turn, phase, impulse, the Initiative Track) is kept apart from board state
(characters, markers) as :class:`Flow`.

Ids are stable strings from the scenario (``"able_1"``, ``"red_3"``); every
collection that the engine iterates is a list or an insertion-ordered dict, so
iteration order is the scenario's roster order and never depends on hashing.
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from solo.core.errors import NotPlacedError
from solo.core.hexes import Hex
from solo.core.sides import Side
from solo.data.cards import DirectionString
from solo.data.tables import MoraleState

__all__ = [
    "AmmoState",
    "Cards",
    "CarriedWeapon",
    "Character",
    "Flow",
    "GameState",
    "GivenOrder",
    "Markers",
    "Phase",
    "Side",
    "Status",
    "Team",
    "Wound",
    "version",
]

# -- the game-state version ---------------------------------------------------------------
#
# Kept answers (who can see whom, the pieces still to spot, option lists) are valid while
# nothing they read has changed. Every write to the state goes through one of three places
# below, so no rule can forget to say it changed something:
# - :meth:`Character.__setattr__` (position, status, order, Spotted/Known, Alert, morale,
#   wounds...: every attribute) bumps its side's count;
# - :class:`MarkerDict` / :class:`MarkerList`, the containers of :class:`Markers` and of a
#   character's wounds, bump on every in-place write (smoke, fire, illumination, grenades);
# - :meth:`GameState.__setattr__` and :meth:`Markers.__setattr__` (terrain changes, the weather's
#   maximum LOS, a marker container replaced) bump the board's count.
# The counts are process-wide and only grow: a kept answer compares the count it was made at,
# so a write in another game of the process only makes it be made again (never a wrong answer,
# and nothing a game decides depends on them: play and logs are the same without them).

FRIENDLY_PIECES = 0
"""Index in :func:`version` of writes to Friendly characters."""
ENEMY_PIECES = 1
"""Index of writes to Enemy characters."""
BOARD = 2
"""Index of writes to the markers, the terrain changes and the rest of :class:`GameState`."""

_WRITES = [0, 0, 0]


def version(part: int) -> int:
    """The count of writes to ``part`` (:data:`FRIENDLY_PIECES`, :data:`ENEMY_PIECES` or
    :data:`BOARD`) so far in this process: equal counts mean nothing of it changed in between."""
    return _WRITES[part]


class MarkerDict(dict):  # type: ignore[type-arg]
    """A ``dict`` that bumps the :data:`BOARD` version on every write (the markers by hex)."""

    __slots__ = ()

    def __setitem__(self, key: Any, value: Any) -> None:
        _WRITES[BOARD] += 1
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        _WRITES[BOARD] += 1
        dict.__delitem__(self, key)

    def pop(self, *args: Any) -> Any:
        _WRITES[BOARD] += 1
        return dict.pop(self, *args)

    def popitem(self) -> Any:
        _WRITES[BOARD] += 1
        return dict.popitem(self)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        _WRITES[BOARD] += 1
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        _WRITES[BOARD] += 1
        dict.update(self, *args, **kwargs)

    def clear(self) -> None:
        _WRITES[BOARD] += 1
        dict.clear(self)

    def __ior__(self, other: Any) -> MarkerDict:  # type: ignore[misc]  # returns the subclass, as the builtin's in-place operator does
        _WRITES[BOARD] += 1
        dict.update(self, other)
        return self


class MarkerList(list):  # type: ignore[type-arg]
    """A ``list`` that bumps a version on every write: the :data:`BOARD` version (markers) or,
    for a character's wounds, its side's (``part``)."""

    __slots__ = ("part",)

    def __init__(self, items: Any = (), part: int = BOARD) -> None:
        list.__init__(self, items)
        self.part = part

    def __reduce_ex__(self, protocol: Any) -> Any:  # copies and pickles keep the part
        return (MarkerList, (list(self), self.part))

    def _bump(self) -> None:
        _WRITES[self.part] += 1

    def append(self, item: Any) -> None:
        self._bump()
        list.append(self, item)

    def extend(self, items: Any) -> None:
        self._bump()
        list.extend(self, items)

    def insert(self, i: Any, item: Any) -> None:
        self._bump()
        list.insert(self, i, item)

    def remove(self, item: Any) -> None:
        self._bump()
        list.remove(self, item)

    def pop(self, *args: Any) -> Any:
        self._bump()
        return list.pop(self, *args)

    def clear(self) -> None:
        self._bump()
        list.clear(self)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self._bump()
        list.sort(self, *args, **kwargs)

    def reverse(self) -> None:
        self._bump()
        list.reverse(self)

    def __setitem__(self, i: Any, item: Any) -> None:
        self._bump()
        list.__setitem__(self, i, item)

    def __delitem__(self, i: Any) -> None:
        self._bump()
        list.__delitem__(self, i)

    def __iadd__(self, items: Any) -> MarkerList:  # type: ignore[misc]  # returns the subclass, as the builtin's in-place operator does
        self._bump()
        list.extend(self, items)
        return self

    def __imul__(self, n: Any) -> MarkerList:  # type: ignore[misc]  # returns the subclass, as the builtin's in-place operator does
        self._bump()
        list.__imul__(self, n)
        return self


def _board_dict(value: Any = None) -> MarkerDict:
    return value if type(value) is MarkerDict else MarkerDict(value or {})


def _board_list(value: Any = None) -> MarkerList:
    return value if type(value) is MarkerList and value.part == BOARD else MarkerList(value or ())


class Status(enum.Enum):
    """Whether a character is still in the game (base-rules §3; C2 23.3–23.4)."""

    ACTIVE = "active"
    INCAPACITATED = "incapacitated"
    """A Friendly character whose wounds reached his TQ exactly (base-rules §8)."""
    DEAD = "dead"
    PRISONER = "prisoner"
    EXITED = "exited"
    """Left the map on purpose (scenario exits)."""
    ROUTED_OFF = "routed_off"
    """A Routed enemy who left the map: counts as killed (base-rules §5.7)."""


class Wound(enum.Enum):
    """A wound a character carries (base-rules §8)."""

    LIGHT = "light"
    """−1 TQ and WS."""
    BAD = "bad"
    """−3 TQ and WS."""


class AmmoState(enum.Enum):
    """Ammunition state of a character (base-rules §10): Full → Low → No."""

    FULL = "full"
    LOW = "low"
    NO = "no"


class Phase(enum.Enum):
    """Steps of the sequence of play (base-rules §1)."""

    SETUP = "setup"
    FRIENDLY_CARD = "friendly_card"
    FRIENDLY_ORDER = "friendly_order"
    ENEMY_CARD_ORDER = "enemy_card_order"
    ACTION = "action"
    END = "end"
    OVER = "over"


@attrs.frozen
class CarriedWeapon:
    """A weapon a character carries, with his WS for it (base-rules §3: one WS per weapon)."""

    weapon: str
    """Weapon id in ``cards/weapons.yaml``."""
    ws: int


@attrs.frozen
class GivenOrder:
    """The order a character holds this turn (base-rules §4).

    ``directions`` is the direction string of a move order (read through the
    Direction Counter, base-rules §6); ``target`` a character id or hex id for
    orders that aim (Grenade, Charge); ``source`` says where it came from
    (``"card e07"``, ``"player"``, ``"duck back"``...).
    """

    order: str
    """Order id in ``cards/orders.yaml`` (``"sneak"``)."""
    directions: DirectionString | None = None
    target: str | None = None
    source: str = ""


@attrs.define
class Character:
    """One character on the map (or in a cup), Friendly or Enemy (base-rules §3)."""

    id: str
    """Stable id from the scenario (``"able_1"``, ``"red_3"``)."""
    name: str
    side: Side
    team: str
    """Team id: ``"able"``, ``"baker"``, ``"charlie"``, ``"com"``, or an Enemy colour."""
    tq: int
    ldr: int
    weapons: tuple[CarriedWeapon, ...]
    skills: tuple[str, ...] = ()
    hex: Hex | None = None
    status: Status = Status.ACTIVE
    morale: MoraleState = MoraleState.NORMAL
    wounds: list[Wound] = attrs.field(factory=list)
    ammo: AmmoState = AmmoState.FULL
    order: GivenOrder | None = None
    revealed: bool = False
    """Friendly: Spotted (True) or Hidden. Enemy: Known (True) or Unknown."""
    alert: bool = True
    """Enemy: Alert (True) or Waiting. Friendly characters are always Alert."""
    prepared: bool = True
    """Enemy: Prepared or Unprepared (base-rules §5.6)."""
    dummy: bool = False
    """An Enemy dummy counter: acts as an Unknown enemy but never fires (base-rules §3)."""
    mg_role: str | None = None
    """``"operator"`` or ``"assistant"`` of a belt-fed MG team (14.3)."""
    trained_medic: bool = False
    """A C2 30.0 Trained Medic: unarmed, +2 TQ on Medical Aid."""
    elite: bool = False
    """An SS counterpart (C2 24.0)."""
    counter: int | None = None
    """The Enemy counter number 1–21 (C2 24.0), if any."""
    vehicle: str | None = None
    """The vehicle id this character rides in (crew or passenger, C2 31.3), or None."""
    seat: str | None = None
    """His position on that vehicle's display (``"commander"``, ``"passenger_3"``...)."""
    acted: dict[str, Any] = attrs.field(factory=dict)
    """Scratch for this turn (spotting done this activation, hexes moved...); cleared each turn."""

    def __setattr__(self, name: str, value: Any) -> None:
        """Every write bumps the version of the character's side (see :func:`version`); his
        wounds are kept in a :class:`MarkerList` so that adding or healing one bumps it too."""
        try:
            part = ENEMY_PIECES if self.side is Side.ENEMY else FRIENDLY_PIECES
        except AttributeError:  # under construction (attrs sets id and name before side)
            part = FRIENDLY_PIECES
        if name == "wounds" and not (type(value) is MarkerList and value.part == part):
            value = MarkerList(value, part)
        elif name == "side":  # never after construction; wounds (set later) take the new side
            part = ENEMY_PIECES if value is Side.ENEMY else FRIENDLY_PIECES
            wounds = getattr(self, "wounds", None)
            if wounds is not None:
                object.__setattr__(self, "wounds", MarkerList(wounds, part))
        _WRITES[part] += 1
        object.__setattr__(self, name, value)

    @property
    def is_active(self) -> bool:
        """Still fighting: not dead, incapacitated, captured, exited or routed off."""
        return self.status is Status.ACTIVE

    @property
    def on_map(self) -> bool:
        """Active or incapacitated, and on a hex."""
        return self.hex is not None and self.status in (Status.ACTIVE, Status.INCAPACITATED)

    @property
    def on_hex(self) -> Hex:
        """The hex of a character the rules place on the map (every one :meth:`GameState.active`
        lists). Raises :class:`~solo.core.errors.NotPlacedError` if he has none."""
        h = self.hex
        if h is None:
            raise NotPlacedError(f"{self.name} ({self.id}) is not on a hex")
        return h

    @property
    def in_seat(self) -> str:
        """The position of a character riding a vehicle (``"commander"``...; C2 31.3).
        Raises :class:`~solo.core.errors.NotPlacedError` if he has no seat."""
        pos = self.seat
        if pos is None:
            raise NotPlacedError(f"{self.name} ({self.id}) has no seat in a vehicle")
        return pos

    @property
    def light_wounds(self) -> int:
        return sum(1 for w in self.wounds if w is Wound.LIGHT)

    @property
    def bad_wounds(self) -> int:
        return sum(1 for w in self.wounds if w is Wound.BAD)

    @property
    def wound_penalty(self) -> int:
        """−1 per Light and −3 per Bad Wound (base-rules §7)."""
        if not self.wounds:
            return 0
        return -self.light_wounds - 3 * self.bad_wounds

    @property
    def effective_tq(self) -> int:
        """TQ with wound penalties (base-rules §7; order markers add 0, §20 Q11)."""
        return self.tq + self.wound_penalty if self.wounds else self.tq

    def has_skill(self, skill: str) -> bool:
        """Whether the character has ``skill`` (``"tough"``, ``"eagle_eyes"``...)."""
        return skill in self.skills


@attrs.define
class Team:
    """A team on the Initiative Track: Friendly Able/Baker/Charlie/COM or an Enemy colour."""

    id: str
    side: Side
    name: str
    members: list[str] = attrs.field(factory=list)
    """Character ids in activation order (base-rules §2)."""
    initiative: int | None = None
    """This turn's initiative value (lower acts first), or None before it is set."""
    first_card: str | None = None
    """Enemy: the first card drawn for the team this turn, which sets its initiative (9.1)."""

    @property
    def on_track(self) -> int:
        """This turn's initiative value of a team placed on the Initiative Track (base-rules §2).
        Raises :class:`~solo.core.errors.NotPlacedError` before it is set."""
        value = self.initiative
        if value is None:
            raise NotPlacedError(f"team {self.id} has no initiative value yet")
        return value


@attrs.define(on_setattr=attrs.setters.NO_OP)
class Markers:
    """Smoke, fire, grenade and illumination markers on the map (base-rules §12–§15, C2 29)."""

    smoke: dict[Hex, list[str]] = attrs.field(factory=MarkerDict, converter=_board_dict)
    """Per hex, its smoke markers: ``"smoke"`` (−4) or ``"fading"`` (−2)."""
    fire: dict[Hex, str] = attrs.field(factory=MarkerDict, converter=_board_dict)
    """Per hex: ``"fire"`` or ``"raging"`` (C2 29.2–29.3)."""
    fire_started: dict[Hex, int] = attrs.field(factory=MarkerDict, converter=_board_dict)
    """The turn each fire started or spread (no damage that turn, C2 29.2)."""
    grenades: list[dict[str, Any]] = attrs.field(factory=MarkerList, converter=_board_list)
    """Pending grenades, smoke grenades and shells: {kind, hex, thrower, turn}; explode in Step 5 a)."""
    illuminated: list[Hex] = attrs.field(factory=MarkerList, converter=_board_list)
    """Illumination markers this turn (§15)."""

    def __setattr__(self, name: str, value: Any) -> None:
        """A marker container replaced bumps the :data:`BOARD` version (see :func:`version`)."""
        _WRITES[BOARD] += 1
        object.__setattr__(self, name, value)


@attrs.define
class Flow:
    """Where the game is in the sequence of play (kept apart from the board)."""

    turn: int = 0
    phase: Phase = Phase.SETUP
    impulse: int = 0
    """1–4 during the Action Phase, else 0."""
    track: list[str] = attrs.field(factory=list)
    """Team ids in Initiative Track order this turn (lowest initiative first)."""
    active_team: str | None = None
    active_character: str | None = None


@attrs.define
class Cards:
    """Card piles of both sides (the decks themselves are :class:`solo.core.decks.Deck`)."""

    hand: list[str] = attrs.field(factory=list)
    """The Friendly hand (card ids), at most 5 (base-rules §18)."""
    played: str | None = None
    """The Friendly card played to the Initiative Track this turn."""
    plan: list[str] = attrs.field(factory=list)
    """Cards set aside by Plan, taken into hand next Friendly Card Phase (7.12)."""
    enemy_this_turn: dict[str, str] = attrs.field(factory=dict)
    """Enemy card drawn this turn per character id (and per team: ``"team:red"``)."""


@attrs.define
class GameState:
    """Everything that changes during a game."""

    characters: dict[str, Character]
    teams: dict[str, Team]
    flow: Flow = attrs.field(factory=Flow)
    cards: Cards = attrs.field(factory=Cards)
    markers: Markers = attrs.field(factory=Markers)
    weather: str = "clear"
    """clear, rain, heavy_rain, mist, fog (C2 28.1)."""
    ground: str = "normal"
    """normal, mud, snow, deep_snow (C2 28.2)."""
    max_los: int | None = None
    """The rolled maximum LOS from weather (C2 28.1), or None."""
    wind: int = 1
    """Direction smoke and fire drift toward (base-rules §13), 1–6."""
    vp: dict[str, int] = attrs.field(factory=lambda: {"friendly": 0, "enemy": 0})
    winner: str | None = None
    over: bool = False
    flags: dict[str, Any] = attrs.field(factory=dict)
    """Scenario-wide one-off state (enemy medic killed, mud started...)."""
    vehicles: dict[str, Any] = attrs.field(factory=dict)
    """Vehicles by id (:class:`solo.rules.vehicles.state.Vehicle`), scenario order (C2 31)."""
    terrain_changes: dict[Hex, str] = attrs.field(factory=dict)
    """Hexes whose terrain changed during play, the new terrain id, in the order they changed (a
    Building hit becomes Rubble, base-rules §14). The game's board is the map with these applied
    (:meth:`solo.rules.context.GameContext.change_terrain`); the map and its shared tables are not."""
    _rosters: dict[Any, tuple[Character, ...]] = attrs.field(
        factory=dict, repr=False, eq=False, alias="_rosters"
    )

    def __setattr__(self, name: str, value: Any) -> None:
        """Every write (terrain changes, the maximum LOS, the weather...) bumps the :data:`BOARD`
        version (see :func:`version`); the characters bump their own."""
        _WRITES[BOARD] += 1
        object.__setattr__(self, name, value)

    def on_side(self, side: Side) -> list[Character]:
        """Characters of ``side`` in roster order (all statuses)."""
        return [c for c in self.characters.values() if c.side is side]

    def roster(self, side: Side | None = None) -> tuple[Character, ...]:
        """Every character (of ``side``) in roster order; cached until the roster changes."""
        key = (None if side is None else side._value_, len(self.characters))  # str: enum hash is slow
        cached = self._rosters.get(key)
        if cached is None:
            cached = tuple(c for c in self.characters.values() if side is None or c.side is side)
            self._rosters[key] = cached
        return cached

    def active(self, side: Side | None = None) -> list[Character]:
        """Active, on-map characters (of ``side``), roster order."""
        active = Status.ACTIVE
        return [c for c in self.roster(side) if c.status is active and c.hex is not None]

    def at(self, h: Hex) -> list[Character]:
        """Characters on hex ``h`` (active or incapacitated), roster order."""
        return [c for c in self.characters.values() if c.hex == h and c.on_map]
