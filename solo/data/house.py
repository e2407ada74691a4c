"""The house edition as one bundle: every shipped table, deck and map, loaded and cross-checked.

:func:`load_data` reads a card set (``cards/`` or a designer's copy of some of
its files) and the maps, checks each file and the references between files
(terrain chart rows, order codes on the cards, forced orders), and raises one
:class:`~solo.core.errors.DataError` with every problem of every file at once;
the result is :class:`HouseData`, everything the engine needs. :func:`load_tables`
does the same for the four house tables alone (orders, charts, weapons, checks).
:mod:`solo.data.validate` checks any list of files and directories for ``solo validate``.

May import: :mod:`solo.core` and every other module of :mod:`solo.data` except
:mod:`solo.data.scenario` and :mod:`solo.data.validate` (which import this one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.datafile import DataFile, DocPath, Problems, read, read_card_file
from solo.core.errors import DataError, Problem
from solo.core.resources import cards_dir, display_name, maps_dir
from solo.data import data_cache
from solo.data.cards import load_enemy_deck
from solo.data.characters import load_characters
from solo.data.charts import CHARTS_FILE, charts_from, load_charts
from solo.data.crew_counters import load_crews
from solo.data.event_tables import load_event_tables
from solo.data.friendly_deck import load_friendly_deck
from solo.data.maps import load_map
from solo.data.orders import ORDERS_FILE, load_orders, orders_from
from solo.data.tables import CHECKS_FILE, checks_from, load_checks
from solo.data.terrain import load_terrain
from solo.data.vom import load_vom
from solo.data.weapons import WEAPONS_FILE, load_weapons, weapons_from

if TYPE_CHECKING:
    from solo.data.cards import EnemyDeckDef
    from solo.data.characters import CharacterBook
    from solo.data.charts import Charts
    from solo.data.crew_counters import Crews
    from solo.data.event_tables import EventTables
    from solo.data.friendly_deck import FriendlyDeckDef
    from solo.data.maps import MapDef
    from solo.data.orders import OrderTable
    from solo.data.tables import Checks
    from solo.data.terrain import TerrainTable
    from solo.data.vehicle_types import VehicleTypes
    from solo.data.vom import Vom
    from solo.data.weapons import WeaponTable

CARD_FILES: dict[str, Callable[[Path], Any]] = {
    "terrain.yaml": load_terrain,
    "orders.yaml": load_orders,
    "charts.yaml": load_charts,
    "weapons.yaml": load_weapons,
    "checks.yaml": load_checks,
    "enemy_orders.yaml": load_enemy_deck,
    "friendly_deck.yaml": load_friendly_deck,
    "characters.yaml": load_characters,
    "vehicle_order_matrix.yaml": load_vom,
    "crews.yaml": load_crews,
    "events.yaml": load_event_tables,
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
    "characters.yaml": "characters",
    "vehicle_order_matrix.yaml": "vom",
    "crews.yaml": "crews",
    "events.yaml": "events",
}


@attrs.frozen
class HouseData:
    """Every definition the engine needs, loaded and checked (frozen, shared)."""

    terrain: TerrainTable
    orders: OrderTable
    charts: Charts
    weapons: WeaponTable
    checks: Checks
    enemy_deck: EnemyDeckDef
    friendly_deck: FriendlyDeckDef
    characters: CharacterBook
    """Squad profiles, the C2 25.0 selection table and the Enemy counters (``cards/characters.yaml``)."""
    events: EventTables
    """The Friendly and Enemy event tables (``cards/events.yaml``)."""
    vom: Vom
    """The Vehicle Order Matrix (``cards/vehicle_order_matrix.yaml``, C2 31.11.3)."""
    crews: Crews
    """Crew counters per position for random crews (``cards/crews.yaml``, C2 31.3)."""
    vehicles: VehicleTypes
    """Vehicle types by id (``cards/vehicles/*.yaml``, C2 31)."""
    maps: dict[str, MapDef] = attrs.field(repr=False)
    sources: dict[str, str] = attrs.field(repr=False)
    """Which file each table came from (name → display path)."""


@attrs.frozen
class Tables:
    """The four house-edition tables, checked against each other."""

    orders: OrderTable
    charts: Charts
    weapons: WeaponTable
    checks: Checks


def load_tables(directory: Path | str | None = None) -> Tables:
    """Load the four tables from ``directory`` (``None``: the shipped ``cards/``).

    Besides each file's own checks, every ``forced_order`` of ``checks.yaml`` must be an
    order id of ``orders.yaml``. Raises one :class:`DataError` with the problems of all files.
    """
    base = cards_dir() if directory is None else Path(directory)
    problems: list[Problem] = []
    results: dict[str, Any] = {}
    docs: dict[str, DataFile] = {}
    builders = (
        (ORDERS_FILE, orders_from),
        (CHARTS_FILE, charts_from),
        (WEAPONS_FILE, weapons_from),
        (CHECKS_FILE, checks_from),
    )
    for filename, build in builders:
        try:
            docs[filename] = doc = read_card_file(base / filename, filename)
            results[filename] = build(doc)
        except DataError as exc:
            problems.extend(exc.problems)
    orders: OrderTable | None = results.get(ORDERS_FILE)
    checks: Checks | None = results.get(CHECKS_FILE)
    if orders is not None and checks is not None:
        probs = Problems()
        for i, row in enumerate(checks.morale_rows):
            if row.forced_order is not None and row.forced_order not in orders:
                probs.add(
                    docs[CHECKS_FILE],
                    ("morale_states", i, "forced_order"),
                    f"unknown order {row.forced_order!r} (not in {ORDERS_FILE})",
                )
        problems.extend(probs.items)
    if problems:
        raise DataError(problems)
    return Tables(
        orders=results[ORDERS_FILE],
        charts=results[CHARTS_FILE],
        weapons=results[WEAPONS_FILE],
        checks=results[CHECKS_FILE],
    )


def _card_path(name: str, overlay: Path | None) -> Path:
    if overlay is not None and (overlay / name).exists():
        return overlay / name
    return cards_dir() / name


@attrs.define
class LoadedSet:
    """What one pass over a card set and its maps found."""

    tables: dict[str, Any] = attrs.field(factory=dict)
    paths: dict[str, Path] = attrs.field(factory=dict)
    maps: dict[str, MapDef] = attrs.field(factory=dict)
    map_paths: list[Path] = attrs.field(factory=list)
    """Every map file read, in the order read."""
    problems: list[Problem] = attrs.field(factory=list)


def load_set(
    cards: Path | None, maps: Iterable[Path] = (), single: Path | None = None, *, shipped_maps: bool = True
) -> LoadedSet:
    """Load a card set (``cards`` replacing shipped files, or one ``single`` file) and maps with it."""
    out = LoadedSet()
    if cards is not None and not Path(cards).is_dir():
        out.problems.append(Problem(str(cards), None, "no such card set directory"))
        return out
    for name, loader in CARD_FILES.items():
        path = single if single is not None and single.name == name else _card_path(name, cards)
        out.paths[name] = path
        try:
            if name in ("characters.yaml", "crews.yaml"):  # weapons checked against this card set's
                weapons = out.tables.get("weapons.yaml")
                if weapons is None:
                    continue
                if name == "characters.yaml":
                    out.tables[name] = load_characters(path, weapons)
                else:
                    out.tables[name] = load_crews(path, weapon_ids={w.id for w in weapons})
            else:
                out.tables[name] = loader(path)
        except DataError as exc:
            out.problems.extend(exc.problems)
    # Imported here: its file-format classes are not needed to read the data from the cache.
    from solo.data.vehicle_type_files import load_vehicle_types

    vdir = cards_dir() / "vehicles"
    if cards is not None and (cards / "vehicles").is_dir():
        vdir = cards / "vehicles"
    out.paths["vehicles"] = vdir
    weapons = out.tables.get("weapons.yaml")
    if weapons is not None:
        try:
            out.tables["vehicles"] = load_vehicle_types(vdir, weapons=weapons)
        except DataError as exc:
            out.problems.extend(exc.problems)
    terrain = out.tables.get("terrain.yaml")
    if terrain is not None:
        map_paths = sorted(maps_dir().glob("*.yaml")) if shipped_maps else []
        map_paths += [Path(p) for p in maps]
        out.map_paths.extend(map_paths)
        for p in map_paths:
            try:
                m = load_map(p, terrain)
            except DataError as exc:
                out.problems.extend(exc.problems)
                continue
            out.maps[m.id] = m
    out.problems.extend(cross_check(out.tables, out.paths))
    return out


def load_data(cards: Path | None = None, maps: Path | None = None) -> HouseData:
    """Load every table, deck and map; ``cards`` may be a directory holding some card files.

    Files present in ``cards`` replace the shipped ones; the rest are shipped.
    ``maps`` adds or replaces maps by id. Raises :class:`DataError` with every
    problem of every file, and of the references between them (a missing
    ``cards`` directory is a problem too). A load without problems is kept in the parsed-data
    cache (:mod:`solo.data.data_cache`, keyed by the bytes of every file read and the loader
    source; ``SOLO_DATA_CACHE=off`` disables it).
    """
    extra = sorted(Path(maps).glob("*.yaml")) if maps is not None else []
    card_set = Path(cards) if cards is not None else None

    def build() -> HouseData:
        got = load_set(card_set, extra)
        if got.problems:
            raise DataError(got.problems)
        return house_from(got)

    return data_cache.cached("house", _input_files(card_set, extra), build)


def _input_files(cards: Path | None, extra_maps: list[Path]) -> list[Path]:
    """Every file :func:`load_set` reads for ``cards`` and ``extra_maps`` (the data cache's key)."""
    files = [_card_path(name, cards) for name in CARD_FILES]
    vdir = cards_dir() / "vehicles"
    if cards is not None and (cards / "vehicles").is_dir():
        vdir = cards / "vehicles"
    files += sorted(vdir.glob("*.yaml"))
    files += sorted(maps_dir().glob("*.yaml"))
    return files + list(extra_maps)


def house_from(got: LoadedSet) -> HouseData:
    """The :class:`HouseData` of a card set loaded without problems."""
    return HouseData(
        **{_FIELD.get(name, name): value for name, value in got.tables.items()},
        maps=got.maps,
        sources={name: display_name(p) for name, p in got.paths.items()},
    )


def cross_check(loaded: dict[str, Any], paths: dict[str, Path]) -> list[Problem]:
    """Problems in the references between card files (each given by file name, with its real path)."""
    out: list[Problem] = []

    def name(f: str) -> str:
        return display_name(paths[f])

    terrain = loaded.get("terrain.yaml")
    charts = loaded.get("charts.yaml")
    if terrain is not None and charts is not None:
        rows = set(charts.row_ids())
        for i, t in enumerate(terrain.types):
            if t.chart_row not in rows:
                out.append(
                    _at(
                        paths["terrain.yaml"],
                        ("terrain", i, "chart_row"),
                        f"terrain {t.id!r}: chart_row {t.chart_row!r} is not a row of {name('charts.yaml')}",
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
                        paths["enemy_orders.yaml"],
                        code,
                        f"order code {code!r} is not defined in {name('orders.yaml')}",
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
                            paths["friendly_deck.yaml"],
                            order_id,
                            f"card {card.id}: order {order_id!r} is not defined in {name('orders.yaml')}",
                        )
                    )
    vom = loaded.get("vehicle_order_matrix.yaml")
    if orders is not None and vom is not None:
        ids = {o.id for o in orders.orders}
        for order_id in vom.order_ids():
            if order_id not in ids:
                out.append(
                    _first_mention(
                        paths["vehicle_order_matrix.yaml"],
                        order_id,
                        f"VOM order {order_id!r} is not defined in {name('orders.yaml')}",
                    )
                )
    checks = loaded.get("checks.yaml")
    if orders is not None and checks is not None:
        ids = {o.id for o in orders.orders}
        for i, row in enumerate(checks.morale_rows):
            if row.forced_order is not None and row.forced_order not in ids:
                out.append(
                    _at(
                        paths["checks.yaml"],
                        ("morale_states", i, "forced_order"),
                        f"unknown order {row.forced_order!r} (not in {name('orders.yaml')})",
                    )
                )
    return out


def _at(path: Path, doc_path: DocPath, message: str) -> Problem:
    """A problem at a document path of the file at ``path`` (re-read for its line; a rare path)."""
    try:
        return read(path, display_name(path)).problem(doc_path, message)
    except DataError:
        return Problem(display_name(path), None, message)


def _first_mention(path: Path, token: str, message: str) -> Problem:
    """A problem on the first line of the file at ``path`` that mentions ``token``."""
    shown = display_name(path)
    try:
        text = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return Problem(shown, None, message)
    for i, line in enumerate(text, 1):
        if token in line.split("#", 1)[0].replace('"', " ").replace(",", " ").replace("[", " ").split():
            return Problem(shown, i, message)
    return Problem(shown, None, message)
