"""Loading and checking scenarios (``maps/scenarios/*.yaml``): :func:`load_scenario`.

:func:`load_scenario` reads a scenario file (or a shipped scenario by id), structures it into a
:class:`~solo.data.scenario_format.Scenario` and checks it against a card set and its maps
(:class:`~solo.data.house.HouseData`): the map; hexes on the map and enterable; no unit on an
opponent's hex at set-up (§19); weapons, skills, orders, profiles and counters known (C2 24.0,
25.0); ids unique; team ids allowed for their side (§2); month, wind and rotation ranges; cups
no larger than their set-up hexes; option names and values; vehicles, their crews and passengers
(C2 31.3); victory bands (§19). Every problem is reported at once as one
:class:`~solo.core.errors.DataError` with its line. :func:`shipped_scenarios` lists the shipped
scenarios.

May import: :mod:`solo.core` and :mod:`solo.data` (:mod:`solo.data.house` only for the type of
the data a scenario is checked against; :mod:`solo.data.house` never imports this module).
"""

from __future__ import annotations

import os
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
    read,
    structure,
    structure_all,
)
from solo.core.errors import DataError, GeometryError, Problem
from solo.core.hexes import Hex
from solo.core.options import OPTION_CHOICES, OPTION_RANGES, Options
from solo.core.resources import display_name, maps_dir
from solo.core.sides import Side
from solo.data.characters import ROLLED_TEAMS, CharacterBook, _book_for, check_stats
from solo.data.scenario_format import (
    ENEMY_TEAMS,
    FRIENDLY_TEAMS,
    CharacterSpec,
    CupSpec,
    ReinforcementSpec,
    Scenario,
    TeamSpec,
    VehicleSpec,
    parse_forced_order,
)
from solo.data.scenario_needs import card_needs, missing_sections, source_of
from solo.data.terrain import Placement

if TYPE_CHECKING:
    from solo.data.house import HouseData
    from solo.data.maps import MapDef

__all__ = [
    "load_scenario",
    "shipped_scenarios",
]

MAX_TURNS = 99
MAX_HAND = 5
"""The Friendly hand limit (base-rules §18); a starting hand may not exceed it."""


def load_scenario(path: Path | str, data: HouseData, *, characters: CharacterBook | None = None) -> Scenario:
    """Load and check a scenario file (or a shipped scenario by id, ``"first_contact"``).

    ``characters`` defaults to the shipped ``cards/characters.yaml``. Raises
    :class:`~solo.core.errors.DataError` listing every problem with its line, in one run: the
    map, hexes off the map or impassable, a unit on an opponent's hex, unknown weapons, skills,
    orders, profiles and counters, duplicate ids, team ids not allowed for the side, month, wind
    and rotation ranges, cups larger than their set-up hexes, option names and values. An id
    that is neither a shipped scenario nor a file raises a DataError listing the shipped ids.
    """
    p = Path(path)
    if not p.suffix and not p.exists():
        p = maps_dir() / "scenarios" / f"{path}.yaml"
        if not p.exists():
            shipped = ", ".join(s.stem for s in shipped_scenarios())
            raise DataError(
                [
                    Problem(
                        str(path),
                        None,
                        f"unknown scenario {str(path)!r} (shipped: {shipped}; or give the path of a "
                        "scenario file)",
                    )
                ]
            )
    doc = read(p, display_name(p))
    sc, doc, unread = structure_all(doc, Scenario)  # a wrong setting hides no other problem
    map_def, map_error, map_problems = _own_map(sc.map, p, data)
    checker = _Checker(doc, sc, data, _book_for(data, characters), map_def=map_def, map_error=map_error)
    checker.probs.items.extend([*unread, *map_problems])
    checker.run()
    sc = attrs.evolve(sc, source=doc.name, map_def=map_def)
    if sc.overlays:
        from solo.data.maps import with_overlays

        extra = tuple((Hex.parse(h), o.feature) for o in sc.overlays for h in o.hexes.split())
        sc = attrs.evolve(sc, map_def=with_overlays(sc.map_of(data.maps), extra))
    return sc


def text_has(hexes: str, h: Hex) -> bool:
    """Whether the space-separated hex list ``hexes`` names ``h`` (bad tokens are skipped)."""
    for tok in hexes.split():
        try:
            if Hex.parse(tok) == h:
                return True
        except GeometryError:
            continue
    return False


def _looks_like_path(text: str) -> bool:
    return "/" in text or "\\" in text or Path(text).suffix in (".yaml", ".yml")


def _own_map(
    text: str, scenario_file: Path, data: HouseData
) -> tuple[MapDef | None, str | None, list[Problem]]:
    """A map given by path (relative to the scenario file): (map, message, problems of its file).

    A map id of ``data.maps`` gives (None, None, []): the scenario uses the card set's map.
    """
    from solo.data.maps import load_map

    if text in data.maps:
        return None, None, []
    known = ", ".join(sorted(data.maps))
    if not _looks_like_path(text):
        hint = "or a map file, e.g. mytown.yaml"
        for folder in (scenario_file.parent, scenario_file.parent.parent):
            found = folder / f"{text}.yaml"
            if found.is_file():
                rel = Path(os.path.relpath(found, scenario_file.parent)).as_posix()
                hint = f"{found} is here: write 'map: {rel}', or give its folder with --maps {folder}"
                break
        return None, f"unknown map {text!r} (expected one of: {known}; {hint})", []
    path = Path(text).expanduser()
    if not path.is_absolute():
        path = Path(os.path.normpath(scenario_file.parent / path))
    if not path.is_file():
        return (
            None,
            f"map file {text!r} not found (looked for {path}); give a map id ({known}) or the path "
            "of a map file, relative to the scenario file",
            [],
        )
    try:
        return load_map(path, data.terrain), None, []
    except DataError as exc:
        return None, f"map file {text!r} has problems (listed under its name)", list(exc.problems)


def user_files(scenario: str | Path) -> tuple[Path, ...]:
    """The files a game of ``scenario`` reads outside the data folders, for the log's data
    version (:func:`solo.core.log.data_version`): a scenario given by the path of a file not
    shipped, and the map file its ``map:`` names by path (relative to the scenario file).
    A shipped scenario id gives ``()``; a map given by id adds nothing (``--maps DIR`` is
    hashed as a folder). A scenario file that cannot be read gives just the file.
    """
    p = Path(scenario)
    if not p.is_file():
        return ()
    shipped = (maps_dir() / "scenarios").resolve()
    if p.resolve().parent == shipped:
        return ()
    out = [p]
    import yaml  # here: a game whose data come from the parsed-data cache never imports PyYAML

    try:
        doc = yaml.safe_load(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return tuple(out)
    text = doc.get("map") if isinstance(doc, dict) else None
    if isinstance(text, str) and _looks_like_path(text):
        m = Path(text).expanduser()
        if not m.is_absolute():
            m = Path(os.path.normpath(p.parent / m))
        if m.resolve().parent != maps_dir().resolve():
            out.append(m)
    return tuple(out)


def shipped_scenarios() -> list[Path]:
    """Paths of the shipped scenarios, sorted by name."""
    return sorted((maps_dir() / "scenarios").glob("*.yaml"))


_STAT_KEYS = ("name", "tq", "ldr", "weapons", "skills", "mg_role", "trained_medic")
_ENEMY_ONLY_TEAM_KEYS = ("alert", "prepared", "elite", "cup")


class _Checker:
    """The semantic checks of a structured scenario; every problem goes to one bag."""

    def __init__(
        self,
        doc: DataFile,
        sc: Scenario,
        data: Any,
        book: CharacterBook,
        *,
        map_def: MapDef | None = None,
        map_error: str | None = None,
    ) -> None:
        self.doc = doc
        self.sc = sc
        self.data = data
        self.book = book
        self.probs = Problems()
        self.map: MapDef | None = map_def if map_def is not None else data.maps.get(sc.map)
        self.map_error, self.crews_file = map_error, source_of(data, "crews.yaml")
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
        node: Any = self.doc.data
        for step in path:
            if isinstance(node, dict) and step in node:
                node = node[step]
            elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
                node = node[step]  # (one branch each: mypy narrows the index type apart)
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
        pf = sc.panzerfaust  # its level is PF_LEVEL, 0-4 (C2 32.3)
        if pf is not None and pf.type not in ("panzerfaust_60", "panzerfaust_100"):
            self.add(("panzerfaust", "type"), "type is panzerfaust_60 or panzerfaust_100")
        self.check_overlays()
        self.check_opponents()
        self.check_fires()
        self.check_victory()
        self.probs.extend([*missing_sections(self.doc, sc), *card_needs(self.doc, sc, self.data)])
        self.probs.raise_if_any()

    def check_overlays(self) -> None:
        """The scenario's overlays (C2 27.4): overlay terrain ids on hexes of the map, none twice."""
        table = self.data.terrain
        for i, o in enumerate(self.sc.overlays):
            t = table.get(o.feature) if o.feature in table else None
            if t is None or t.placement not in (Placement.OVERLAY, Placement.HEX_OR_OVERLAY):
                self.add(
                    ("overlays", i, "feature"),
                    f"{o.feature!r} is not an overlay (expected e.g. trench, foxhole, barbed_wire)",
                )
                continue
            where = ("overlays", i, "hexes")
            seen: set[Hex] = set()
            for k, h in enumerate(
                self.check_hex_list(where, o.hexes, side=None, label="overlay", passable=False)
            ):
                if h is None:
                    continue
                if h in seen or (self.map is not None and t.id in self.map.overlays.get(h, ())):
                    self.add_token(where, k, f"{t.id} on {h} is given twice (or the map has it already)")
                seen.add(h)

    def check_top(self) -> None:
        sc, data = self.sc, self.data
        if not SNAKE_ID.match(sc.id):
            self.add(("id",), f"scenario id {sc.id!r} must be snake_case")
        if self.map is None:
            known = ", ".join(sorted(data.maps))
            self.add(("map",), self.map_error or f"unknown map {sc.map!r} (expected one of: {known})")
        if self.has_key((), "map_def"):
            self.add(("map_def",), "unknown key 'map_def' (give the map with 'map')", at_key=True)
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
        if sc.first_orders and len(sc.first_orders) != 10:
            self.add(
                ("first_orders",), f"a first-order table has 10 orders (d10 0-9), not {len(sc.first_orders)}"
            )
        for k, text in enumerate(sc.first_orders):
            try:
                parse_forced_order(text, self.data.orders)
            except ValueError as exc:
                self.add(("first_orders", k), str(exc))
        for i, b in enumerate(sc.barrages):
            where = ("barrages", i)
            if not 1 <= b.turn <= sc.turns:
                self.add((*where, "turn"), f"turn {b.turn} outside 1-{sc.turns}")
            if b.calibre not in ("60mm", "81mm", "105mm"):
                self.add((*where, "calibre"), f"calibre {b.calibre!r} is not one of 60mm, 81mm, 105mm")
            if b.rounds not in ("d6", "d10") and not (b.rounds.isdigit() and 1 <= int(b.rounds) <= 20):
                self.add((*where, "rounds"), f"rounds {b.rounds!r} must be d6, d10 or a number 1-20")
        if sc.c4 is not None:
            for text in sc.c4.hexes.split():
                self.check_hex(("c4", "hexes"), text, passable=False)
        if sc.minefields:
            seen: set[str] = set()
            for k, text in enumerate(sc.minefields.split()):
                h = self.check_hex(("minefields",), text, k=k, passable=False)
                if h is not None and str(h) in seen:
                    self.add_token(("minefields",), k, f"hex {text} is given twice")
                if h is not None:
                    seen.add(str(h))
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
        for name, choices in OPTION_CHOICES.items():
            if name in self.sc.options and getattr(opts, name) not in choices:
                self.add(
                    ("options", name),
                    f"option {name} {getattr(opts, name)!r} (expected one of: {', '.join(choices)})",
                )
        for name, (lo, hi) in OPTION_RANGES.items():
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
            check_stats(self.doc, self.probs, where, c, self.data.weapons)
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
        if wave.event and wave.turn is not None:
            self.add((*where, "turn"), "an event wave (event: true) has no turn: the Event table calls it")
        elif not wave.event and wave.turn is None:
            self.add(where, "a reinforcement wave needs a turn (or event: true, §18)")
        elif wave.turn is not None and not 1 <= wave.turn <= sc.turns:
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
        if v.wrecked and (v.crew or v.passengers or v.road_orders):
            self.add((*where, "wrecked"), "a wreck has no crew, passengers or road orders")
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
                    self.add((*where, "crew", pos), f"unknown crew counter {who!r} ({self.crews_file})")
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

    def check_fires(self) -> None:
        """``fires:`` (C2 29.0): hexes on the map, each once, of terrain that burns (a kindling
        value, C2 29.2), with nobody and no vehicle set up in them and no reinforcement wave entering
        by them (29.2: no one enters a Fire)."""
        sc = self.sc
        if not sc.fires:
            return
        seen: set[str] = set()
        vehicle_hexes = {v.hex for v in sc.vehicles}
        waves: dict[str, list[tuple[int, ReinforcementSpec]]] = {}  # C2 29.2: a wave enters there
        for i, w in enumerate(sc.reinforcements):
            tokens = (w.hexes or "").split() + [c.hex for c in w.characters if c.hex]
            for tok in dict.fromkeys(tokens):
                try:
                    waves.setdefault(str(Hex.parse(tok)), []).append((i, w))
                except GeometryError:
                    continue  # reported with the wave
        for k, text in enumerate(sc.fires.split()):
            h = self.check_hex(("fires",), text, k=k, passable=False)
            if h is None:
                continue
            if str(h) in seen:
                self.add_token(("fires",), k, f"hex {text} is given twice")
                continue
            seen.add(str(h))
            if self.map is None:
                continue
            own = [o.feature for o in sc.overlays if o.feature in self.data.terrain and text_has(o.hexes, h)]
            ids = (self.map.terrain[h], *self.map.overlays.get(h, ()), *own)  # the scenario's overlays too
            kinds = [self.data.terrain[t] for t in ids]
            if all(t.kindling is None for t in kinds):
                self.add_token(
                    ("fires",), k, f"hex {text} is {kinds[0].name}, which does not burn (C2 29.2 kindling)"
                )
            who = [lab for _s, _p, _k, lab in self.placed.get(h, [])]
            if str(h) in vehicle_hexes:
                who.append("a vehicle")
            who.extend(f"reinforcement wave {i + 1} ({w.team})" for i, w in waves.get(str(h), []))
            if who:
                names = ", ".join(who)
                self.add_token(
                    ("fires",), k, f"hex {text} burns at set-up but {names} starts or enters there (C2 29.2)"
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
                return str(t.name)
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
