"""``solo validate``: check any card files, card sets, maps and scenarios, and list every problem.

:func:`check` (and :func:`validate`, its problems alone) takes files and directories (none: all
the shipped data). A directory is a card set and/or a folder of maps and scenarios; a single file
is a card file by its name, else a scenario or a map by its parsed keys (:func:`data_kind`). Card
sets and maps are loaded as :mod:`solo.data.house` loads them, and scenarios checked against them
with :func:`solo.data.scenario.load_scenario` (which checks what each needs from the cards, C2
31.3); a card set without scenarios of its own is checked against the shipped ones. Nothing is
raised for bad data: the problems are returned, each with its file and line, with the folders
read and the scenarios that cannot be played (:class:`Report`).

May import: :mod:`solo.core`, :mod:`solo.data` (the top of the room: nothing in it imports this).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import attrs

from solo.core.datafile import read
from solo.core.errors import DataError, Problem
from solo.core.resources import display_name, maps_dir
from solo.data.house import CARD_FILES, LoadedSet, house_from, load_set
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


@attrs.define
class Report:
    """What :func:`check` found: files checked, problems, the folders read, unplayable scenarios."""

    files: int = 0
    problems: list[Problem] = attrs.field(factory=list)
    read: dict[Path, int] = attrs.field(factory=dict)
    """Every folder a data file was read from (its real path) → how many files were read there."""
    unplayable: list[str] = attrs.field(factory=list)
    """The ids (file stems) of the scenarios that cannot be played with the card set checked."""

    def note(self, files: Iterable[Path]) -> None:
        """Count ``files`` under the folders they were read from."""
        for f in files:
            d = Path(f).resolve().parent
            self.read[d] = self.read.get(d, 0) + 1

    def folders(self) -> str:
        """The folders read, for messages: ``"DIR (n files), DIR (1 file)"``."""
        return ", ".join(f"{d} ({n} file{'s' if n != 1 else ''})" for d, n in self.read.items())


def validate(
    paths: Iterable[Path | str] = (), *, cards: Path | str | None = None, maps: Path | str | None = None
) -> tuple[int, list[Problem]]:
    """Check the given files and directories (none: all shipped data); return (files, problems).

    The problems of :func:`check`, which tells more (the folders read, the scenarios that cannot
    be played).
    """
    report = check(paths, cards=cards, maps=maps)
    return report.files, report.problems


def check(
    paths: Iterable[Path | str] = (), *, cards: Path | str | None = None, maps: Path | str | None = None
) -> Report:
    """Check the given files and directories (none: all shipped data) and report what was read.

    A directory is a card set and/or a folder of maps and scenarios (its ``scenarios/``
    subfolder too): its card files are checked with the shipped files they do not replace, and
    every map and scenario is checked against that card set; a card set without scenarios of its
    own (a directory, a single card file or ``--cards``) is checked against every shipped
    scenario, so a card set that validates plays every scenario it is checked with. A single
    file is a card file by its name (``enemy_orders.yaml``...), else a scenario or a map by its
    parsed keys (:func:`data_kind`; a file in a ``scenarios`` folder is a scenario). Nothing is
    raised for bad data: problems are returned, every one with its file and line; the ids of the
    scenarios that fail are :attr:`Report.unplayable`.

    ``cards`` (``--cards DIR``) replaces shipped card files wherever a card set is loaded;
    ``maps`` (``--maps DIR``) adds its maps, and its ``scenarios/`` to the ones checked when no
    path is given. A missing directory is a problem.
    """
    given = [Path(p) for p in paths]
    out = Report()
    own = Path(cards) if cards is not None else None
    extra: list[Path] = []
    if maps is not None:
        if not Path(maps).is_dir():
            out.problems.append(Problem(str(maps), None, "no such map directory"))
            return out
        extra = [f for f in sorted(Path(maps).glob("*.yaml")) if not _looks_like_scenario(f)]
    shipped = sorted((maps_dir() / "scenarios").glob("*.yaml"))
    if maps is not None:
        shipped += [f for f in sorted(Path(maps).glob("*.yaml")) if f not in extra]
        shipped += sorted((Path(maps) / "scenarios").glob("*.yaml"))
    if not given:
        got = load_set(own, extra)
        out.files += len(CARD_FILES) + len(got.maps) + len(shipped)
        _against(out, got, shipped)
        out.problems = _sorted(out.problems)
        return out
    for p in given:
        if not p.exists():
            out.problems.append(Problem(str(p), None, "no such file or directory"))
            continue
        if p.is_dir():
            files = sorted(p.glob("*.yaml"))
            bad = [(f, why) for f in files if (why := unreadable(f)) is not None]
            out.problems.extend(Problem(str(f), None, why) for f, why in bad)
            files = [f for f in files if f not in dict(bad)]
            card_files = [f for f in files if f.name in CARD_FILES]
            scenario_files = [f for f in files if f not in card_files and _looks_like_scenario(f)] + sorted(
                (p / "scenarios").glob("*.yaml")
            )
            map_files = [f for f in files if f not in card_files and f not in scenario_files]
            out.files += len(card_files) + len(map_files) + len(scenario_files)
            got = load_set(p if card_files else own, [*extra, *map_files])
            if card_files and not scenario_files:
                scenario_files = shipped  # a card set is checked against every shipped scenario
            _against(out, got, scenario_files)
            continue
        out.files += 1
        why = unreadable(p)
        if why is not None:
            out.problems.append(Problem(str(p), None, why))
            continue
        if p.name in CARD_FILES:
            _against(out, load_set(own, extra, single=p), shipped)
        elif _is_scenario(p) or _looks_like_scenario(p):
            _against(out, load_set(own, extra), [p])
        else:
            out.note([p])
            out.problems.extend(_check_map_file(p))
    out.problems = _sorted(out.problems)
    return out


def _against(out: Report, got: LoadedSet, scenarios: list[Path]) -> None:
    """Record the card set ``got`` and, if it loaded, check ``scenarios`` against it."""
    out.note([*got.paths.values(), *got.map_paths])
    out.problems.extend(got.problems)
    if got.problems:
        return
    out.note(scenarios)
    data = house_from(got)
    for f in scenarios:
        try:
            load_scenario(f, data)
        except DataError as exc:
            out.problems.extend(exc.problems)
            out.unplayable.append(f.stem)


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


SCENARIO_KEYS = ("friendly", "enemy", "victory", "vehicles", "reinforcements")
"""Top-level keys that make a data file a scenario (any one of them; base-rules §19)."""
MAP_KEYS = ("legend",)
"""Top-level keys that make a data file a map."""


def data_kind(p: Path) -> str | None:
    """What the file ``p`` is, from its parsed top-level keys: ``"scenario"`` (one of
    :data:`SCENARIO_KEYS`), ``"map"`` (:data:`MAP_KEYS`), or None (unreadable, not a mapping, or
    neither). The text is parsed whole: no comment or prefix decides it."""
    try:
        doc = read(p, display_name(p))
    except DataError:
        return None
    if not isinstance(doc.data, dict):
        return None
    if any(k in doc.data for k in SCENARIO_KEYS):
        return "scenario"
    if any(k in doc.data for k in MAP_KEYS):
        return "map"
    return None


def _looks_like_scenario(p: Path) -> bool:
    return data_kind(p) == "scenario"


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
