"""The house edition as one bundle: every shipped table, deck and map, loaded and cross-checked.

:func:`load_data` reads a card set (``cards/`` or a designer's copy of some of
its files) and the maps, checks each file and the references between files
(terrain chart rows, order codes on the cards), and raises one
:class:`~solo.errors.DataError` with every problem of every file at once.
:func:`validate` does the same for any list of files and directories, for
``solo validate``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import attrs

from solo import cards as cards_mod
from solo import tables as tables_mod
from solo.datafile import read
from solo.errors import DataError, Problem
from solo.maps import MapDef, load_map
from solo.resources import cards_dir, display_name, maps_dir
from solo.terrain import TerrainTable, load_terrain

CARD_FILES: dict[str, Callable[[Path], Any]] = {
    "terrain.yaml": load_terrain,
    "orders.yaml": tables_mod.load_orders,
    "charts.yaml": tables_mod.load_charts,
    "weapons.yaml": tables_mod.load_weapons,
    "checks.yaml": tables_mod.load_checks,
    "enemy_orders.yaml": cards_mod.load_enemy_deck,
    "friendly_deck.yaml": cards_mod.load_friendly_deck,
}
"""The files of a card set, by file name, with their loaders."""

_FIELD = {
    "terrain.yaml": "terrain",
    "orders.yaml": "orders",
    "charts.yaml": "charts",
    "weapons.yaml": "weapons",
    "checks.yaml": "checks",
    "enemy_orders.yaml": "enemy_deck",
    "friendly_deck.yaml": "friendly_deck",
}


@attrs.frozen
class HouseData:
    """Every definition the engine needs, loaded and checked (frozen, shared)."""

    terrain: TerrainTable
    orders: Any
    charts: Any
    weapons: Any
    checks: Any
    enemy_deck: Any
    friendly_deck: Any
    maps: dict[str, MapDef] = attrs.field(repr=False)
    sources: dict[str, str] = attrs.field(repr=False)
    """Which file each table came from (name → display path)."""


def _card_path(name: str, overlay: Path | None) -> Path:
    if overlay is not None and (overlay / name).exists():
        return overlay / name
    return cards_dir() / name


def load_data(cards: Path | None = None, maps: Path | None = None) -> HouseData:
    """Load every table, deck and map; ``cards`` may be a directory holding some card files.

    Files present in ``cards`` replace the shipped ones; the rest are shipped.
    ``maps`` adds or replaces maps by id. Raises :class:`DataError` with every
    problem of every file, and of the references between them.
    """
    problems: list[Problem] = []
    loaded: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for name, loader in CARD_FILES.items():
        path = _card_path(name, cards)
        sources[name] = display_name(path)
        try:
            loaded[name] = loader(path)
        except DataError as exc:
            problems.extend(exc.problems)
    map_defs: dict[str, MapDef] = {}
    terrain = loaded.get("terrain.yaml")
    if terrain is not None:
        map_paths = sorted(maps_dir().glob("*.yaml"))
        if maps is not None:
            map_paths += sorted(Path(maps).glob("*.yaml"))
        for p in map_paths:
            try:
                m = load_map(p, terrain)
            except DataError as exc:
                problems.extend(exc.problems)
                continue
            map_defs[m.id] = m
    problems.extend(cross_check(loaded, sources))
    if problems:
        raise DataError(problems)
    return HouseData(
        **{_FIELD[name]: value for name, value in loaded.items()},
        maps=map_defs,
        sources=sources,
    )


def cross_check(loaded: dict[str, Any], sources: dict[str, str]) -> list[Problem]:
    """Problems in the references between card files (each given by file name)."""
    out: list[Problem] = []
    terrain = loaded.get("terrain.yaml")
    charts = loaded.get("charts.yaml")
    if terrain is not None and charts is not None:
        rows = set(charts.row_ids())
        for i, t in enumerate(terrain.types):
            if t.chart_row not in rows:
                out.append(
                    _at(
                        sources["terrain.yaml"],
                        ("terrain", i, "chart_row"),
                        f"terrain {t.id!r}: chart_row {t.chart_row!r} is not a row of "
                        f"{sources['charts.yaml']}",
                    )
                )
    orders = loaded.get("orders.yaml")
    deck = loaded.get("enemy_orders.yaml")
    if orders is not None and deck is not None:
        codes = {o.code for o in orders.orders if o.code}
        used = sorted(
            {
                entry.code.value
                for card in deck.cards
                for table in (card.cover, card.open)
                for _row, entry in table.rows()
            }
        )
        for code in used:
            if code not in codes:
                out.append(
                    _first_mention(
                        sources["enemy_orders.yaml"],
                        code,
                        f"order code {code!r} is not defined in {sources['orders.yaml']}",
                    )
                )
    friendly = loaded.get("friendly_deck.yaml")
    if orders is not None and friendly is not None:
        ids = {o.id for o in orders.orders}
        for card in friendly.cards:
            for order_id in getattr(card.effect, "forbid", ()):
                if order_id not in ids:
                    out.append(
                        _first_mention(
                            sources["friendly_deck.yaml"],
                            order_id,
                            f"card {card.id}: order {order_id!r} is not defined in {sources['orders.yaml']}",
                        )
                    )
    return out


def _resolve(name: str) -> Path:
    for root, label in ((cards_dir(), "cards/"), (maps_dir(), "maps/")):
        if name.startswith(label):
            return root / name[len(label) :]
    return Path(name)


def _at(name: str, path: tuple, message: str) -> Problem:
    """A problem at a document path of file ``name`` (re-read for its line; rare path)."""
    try:
        return read(_resolve(name), name).problem(path, message)
    except DataError:
        return Problem(name, None, message)


def _first_mention(name: str, token: str, message: str) -> Problem:
    """A problem on the first line of file ``name`` that mentions ``token``."""
    try:
        text = _resolve(name).read_text(encoding="utf-8").splitlines()
    except OSError:
        return Problem(name, None, message)
    for i, line in enumerate(text, 1):
        if token in line.split("#", 1)[0].replace('"', " ").split():
            return Problem(name, i, message)
    return Problem(name, None, message)


def validate(paths: Iterable[Path | str] = ()) -> tuple[int, list[Problem]]:
    """Check the given files and directories (none: all shipped data); return (files, problems).

    A directory is a card set or a map folder: its card files are checked
    together with the shipped files they do not replace; its maps are checked.
    A single file is recognised by its name (``enemy_orders.yaml``...) or, for
    a map, by its ``legend`` key. Nothing is raised for bad data: problems are
    returned, every one with its file and line.
    """
    paths = [Path(p) for p in paths]
    if not paths:
        paths = [cards_dir(), maps_dir()]
    problems: list[Problem] = []
    count = 0
    for p in paths:
        if not p.exists():
            problems.append(Problem(str(p), None, "no such file or directory"))
            continue
        if p.is_dir():
            files = sorted(p.glob("*.yaml"))
            card_files = [f for f in files if f.name in CARD_FILES]
            map_files = [f for f in files if f.name not in CARD_FILES]
            count += len(files)
            problems.extend(_check_card_set(p if card_files else None))
            problems.extend(_check_maps(map_files))
        else:
            count += 1
            if p.name in CARD_FILES:
                problems.extend(_check_card_set(None, single=p))
            else:
                problems.extend(_check_maps([p]))
    return count, sorted(set(problems), key=lambda x: (x.path, x.line or 0, x.message))


def _check_card_set(overlay: Path | None, single: Path | None = None) -> list[Problem]:
    problems: list[Problem] = []
    loaded: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for name, loader in CARD_FILES.items():
        path = single if single is not None and single.name == name else _card_path(name, overlay)
        sources[name] = display_name(path)
        try:
            loaded[name] = loader(path)
        except DataError as exc:
            problems.extend(exc.problems)
    problems.extend(cross_check(loaded, sources))
    return problems


def _check_maps(files: list[Path]) -> list[Problem]:
    problems: list[Problem] = []
    try:
        terrain = load_terrain()
    except DataError as exc:
        return list(exc.problems)
    for f in files:
        try:
            doc = read(f, display_name(f))
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        if not isinstance(doc.data, dict) or "legend" not in doc.data:
            problems.append(
                Problem(
                    display_name(f),
                    1,
                    "not a known data file (expected a map with 'legend', or one of: "
                    + ", ".join(CARD_FILES)
                    + ")",
                )
            )
            continue
        try:
            load_map(f, terrain)
        except DataError as exc:
            problems.extend(exc.problems)
    return problems
