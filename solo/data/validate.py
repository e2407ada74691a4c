"""``solo validate``: check any card files, card sets, maps and scenarios, and list every problem.

:func:`validate` takes files and directories (none: all the shipped data). A directory is a card
set and/or a folder of maps and scenarios; a single file is recognised by its name, as a
scenario or as a map. Card sets and maps are loaded as :mod:`solo.data.house` loads them, and
scenarios checked against them with :func:`solo.data.scenario.load_scenario`. Nothing is raised
for bad data: the problems are returned, each with its file and line.

May import: :mod:`solo.core`, :mod:`solo.data` (the top of the room: nothing in it imports this).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from solo.core.datafile import read
from solo.core.errors import DataError, Problem
from solo.core.resources import display_name, maps_dir
from solo.data.house import CARD_FILES, HouseData, house_from, load_set
from solo.data.scenario import load_scenario


def _is_scenario(path: Path) -> bool:
    return path.parent.name == "scenarios"


def data_dirs(cards: Path | str | None = None, maps: Path | str | None = None) -> str:
    """Which data directories a check or a game reads, for messages: ``"cards: DIR; maps: DIR"``.

    The shipped folders are named by their real path (the installed copy after a non-editable
    install); a designer's ``cards``/``maps`` folder is named first, before what it falls back on.
    """
    from solo.core.resources import cards_dir

    def one(label: str, own: Path | str | None, shipped: Path) -> str:
        joint = "over" if label == "cards" else "and"
        return f"{label}: {own} {joint} {shipped}" if own else f"{label}: {shipped}"

    return f"{one('cards', cards, cards_dir())}; {one('maps', maps, maps_dir())}"


def validate(
    paths: Iterable[Path | str] = (), *, cards: Path | str | None = None, maps: Path | str | None = None
) -> tuple[int, list[Problem]]:
    """Check the given files and directories (none: all shipped data); return (files, problems).

    A directory is a card set and/or a folder of maps and scenarios (its
    ``scenarios/`` subfolder too): its card files are checked with the shipped
    files they do not replace, and every map and scenario is checked against
    that card set. A single file is recognised by its name
    (``enemy_orders.yaml``...), as a scenario (in a ``scenarios`` folder or
    with ``friendly``/``enemy`` keys), or as a map (a ``legend`` key). Nothing
    is raised for bad data: problems are returned, every one with its file and
    line.

    ``cards`` (``--cards DIR``) replaces shipped card files wherever a card set is loaded;
    ``maps`` (``--maps DIR``) adds its maps, and its ``scenarios/`` to the ones checked when no
    path is given. A missing directory is a problem.
    """
    targets = [Path(p) for p in paths]
    problems: list[Problem] = []
    count = 0
    own = Path(cards) if cards is not None else None
    extra: list[Path] = []
    if maps is not None:
        if not Path(maps).is_dir():
            return 0, [Problem(str(maps), None, "no such map directory")]
        extra = [f for f in sorted(Path(maps).glob("*.yaml")) if not _looks_like_scenario(f)]
    if not targets:
        got = load_set(own, extra)
        scenarios = sorted((maps_dir() / "scenarios").glob("*.yaml"))
        if maps is not None:
            scenarios += [f for f in sorted(Path(maps).glob("*.yaml")) if f not in extra]
            scenarios += sorted((Path(maps) / "scenarios").glob("*.yaml"))
        count = len(CARD_FILES) + len(got.maps) + len(scenarios)
        problems.extend(got.problems)
        if not got.problems:
            problems.extend(_check_scenarios(house_from(got), scenarios))
        return count, _sorted(problems)
    for p in targets:
        if not p.exists():
            problems.append(Problem(str(p), None, "no such file or directory"))
            continue
        if p.is_dir():
            files = sorted(p.glob("*.yaml"))
            bad = [(f, why) for f in files if (why := unreadable(f)) is not None]
            problems.extend(Problem(str(f), None, why) for f, why in bad)
            files = [f for f in files if f not in dict(bad)]
            card_files = [f for f in files if f.name in CARD_FILES]
            scenario_files = [f for f in files if f not in card_files and _looks_like_scenario(f)] + sorted(
                (p / "scenarios").glob("*.yaml")
            )
            map_files = [f for f in files if f not in card_files and f not in scenario_files]
            count += len(card_files) + len(map_files) + len(scenario_files)
            got = load_set(p if card_files else own, [*extra, *map_files])
            problems.extend(got.problems)
            if not got.problems:
                problems.extend(_check_scenarios(house_from(got), scenario_files))
            continue
        count += 1
        why = unreadable(p)
        if why is not None:
            problems.append(Problem(str(p), None, why))
            continue
        if p.name in CARD_FILES:
            problems.extend(load_set(own, single=p).problems)
        elif _is_scenario(p) or _looks_like_scenario(p):
            got = load_set(own, extra)
            problems.extend(got.problems or _check_scenarios(house_from(got), [p]))
        else:
            problems.extend(_check_map_file(p))
    return count, _sorted(problems)


def _sorted(problems: list[Problem]) -> list[Problem]:
    return sorted(set(problems), key=lambda x: (x.path, x.line or 0, x.message))


def unreadable(p: Path) -> str | None:
    """Why the file ``p`` cannot be read as UTF-8 text (``"cannot read: ..."``), or None if it can."""
    try:
        p.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"cannot read: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})"
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    return None


def _looks_like_scenario(p: Path) -> bool:
    try:
        head = p.read_text(encoding="utf-8")[:4000]
    except (OSError, UnicodeDecodeError):
        return False
    return any(line.startswith(("friendly:", "enemy:")) for line in head.splitlines())


def _check_scenarios(data: HouseData, files: list[Path]) -> list[Problem]:
    problems: list[Problem] = []
    for f in files:
        try:
            load_scenario(f, data)
        except DataError as exc:
            problems.extend(exc.problems)
    return problems


def _check_map_file(f: Path) -> list[Problem]:
    try:
        doc = read(f, display_name(f))
    except DataError as exc:
        return list(exc.problems)
    if not isinstance(doc.data, dict) or "legend" not in doc.data:
        return [
            Problem(
                display_name(f),
                1,
                "not a known data file (expected a map with 'legend', a scenario "
                "with 'friendly' and 'enemy', or one of: " + ", ".join(CARD_FILES) + ")",
            )
        ]
    got = load_set(None, [f], shipped_maps=False)
    return got.problems
