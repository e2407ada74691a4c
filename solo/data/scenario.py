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

The checks are split by what they read: :mod:`solo.data.scenario_check` (the shared state and
the hexes), :mod:`solo.data.scenario_forces` (teams, characters, cups, reinforcements, vehicles)
and :mod:`solo.data.scenario_setting` (the top keys, options, overlays, fires, set-up opponents,
victory); this module loads the file and runs them in order.

May import: :mod:`solo.core` and :mod:`solo.data` (:mod:`solo.data.house` only for the type of
the data a scenario is checked against; :mod:`solo.data.house` never imports this module).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from solo.core.datafile import check_unique, read, structure_all
from solo.core.errors import DataError, Problem
from solo.core.hexes import Hex
from solo.core.resources import display_name, maps_dir
from solo.core.sides import Side
from solo.data.characters import CharacterBook, _book_for
from solo.data.scenario_forces import ForcesCheck
from solo.data.scenario_format import Scenario
from solo.data.scenario_needs import card_needs, missing_sections
from solo.data.scenario_setting import MAX_HAND, MAX_TURNS, SettingCheck

if TYPE_CHECKING:
    from solo.data.house import HouseData
    from solo.data.maps import MapDef

__all__ = [
    "MAX_HAND",
    "MAX_TURNS",
    "load_scenario",
    "shipped_scenarios",
    "user_files",
]


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


class _Checker(ForcesCheck, SettingCheck):
    """The semantic checks of a structured scenario, in the order they report; every problem
    goes to one bag, raised at the end as one :class:`~solo.core.errors.DataError`."""

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
        self.probs.extend([*missing_sections(self.doc), *card_needs(self.doc, sc, self.data)])
        self.probs.raise_if_any()
