"""Batch input: the seeds, the variants (card sets) and their preparation (issue 6 items 4-5).

A designer changes the Enemy deck (or any card file) and asks what the change
does to a thousand games. :func:`parse_seeds` reads the seeds, :meth:`Variant.parse`
a variant (a card set directory whose files replace the shipped ones, or the
shipped cards), and :func:`prepare` loads each variant's data and the scenario
against it into a :class:`BatchSpec`, every check made before the first game
(:mod:`solo.playtest.batch` plays it).

May import: :mod:`solo.data` and :mod:`solo.core`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import attrs

from solo.core.errors import SoloError
from solo.data.house import CARD_FILES, HouseData, load_data
from solo.data.scenario import load_scenario, shipped_scenarios
from solo.data.scenario_format import Scenario

HOUSE = ("house", "cards/house")
"""Variant directories that mean the shipped cards (``A=house`` or ``A=cards/house``)."""
POLICIES = ("tactical", "simple", "random")
"""Friendly policies a batch can use (``random`` is seeded with the game's seed)."""
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


class BatchError(SoloError):
    """Bad input to a batch: a seed range, a variant, a path, an executor (exit 2, nothing written)."""


# -- input -------------------------------------------------------------------


def parse_seeds(text: str) -> tuple[int, ...]:
    """Seeds from ``"1-1000"``, ``"7"`` or ``"1,5,10-20"`` (non-negative integers, in the order given).

    Raises :class:`BatchError` for anything else: ``"10-1"`` (a backwards range),
    ``"abc"``, an empty list, a seed given twice.
    """
    seeds: list[int] = []
    seen: set[int] = set()
    parts = [p.strip() for p in str(text).split(",")]
    if not text or not text.strip() or any(not p for p in parts):
        raise BatchError(f"--seeds {text!r}: expected a range like 1-1000, a seed, or a list like 1,5,10-20")
    for part in parts:
        m = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if m is None:
            raise BatchError(
                f"--seeds {text!r}: {part!r} is not a seed or a range FIRST-LAST of non-negative integers"
            )
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) is not None else first
        if last < first:
            raise BatchError(
                f"--seeds {text!r}: the range {part} runs backwards (did you mean {last}-{first}?)"
            )
        for s in range(first, last + 1):
            if s in seen:
                raise BatchError(f"--seeds {text!r}: seed {s} is given twice")
            seen.add(s)
            seeds.append(s)
    return tuple(seeds)


@attrs.frozen
class Variant:
    """A named card set to play: ``cards`` is a directory of card files, or None for the shipped ones."""

    name: str
    cards: Path | None = None

    @classmethod
    def parse(cls, text: str) -> Variant:
        """``NAME=DIR`` (``DIR`` = ``house`` or ``cards/house`` for the shipped cards).

        Raises :class:`BatchError` for a missing ``=`` or a bad name; the directory
        itself is checked by :func:`prepare`.
        """
        name, sep, where = str(text).partition("=")
        name, where = name.strip(), where.strip()
        if not sep or not name or not where:
            raise BatchError(f"--variant {text!r}: expected NAME=DIR, e.g. A=house or B=my_deck/")
        if not _NAME.match(name):
            raise BatchError(
                f"--variant {text!r}: the name {name!r} must be letters, digits and _ . + - "
                "(it is written in the CSV)"
            )
        if where.rstrip("/") in HOUSE:
            return cls(name, None)
        return cls(name, Path(where))

    def __str__(self) -> str:
        return f"{self.name}={self.cards if self.cards is not None else 'house'}"


@attrs.frozen
class PreparedVariant:
    """A variant loaded and checked: its data and the scenario loaded against it (frozen, picklable)."""

    name: str
    data: HouseData = attrs.field(repr=False)
    scenario: Scenario = attrs.field(repr=False)
    cards: str = "house"
    """Where its card files come from, as given (``house`` for the shipped cards)."""
    ignored: tuple[str, ...] = ()
    """YAML files in the variant directory that are not card files (not read)."""


@attrs.frozen
class BatchSpec:
    """What every game of a batch needs: the scenario, the prepared variants and the policy name."""

    scenario: str
    variants: tuple[PreparedVariant, ...]
    policy: str = "simple"
    turns: int | None = None

    def variant(self, name: str) -> PreparedVariant:
        """The prepared variant called ``name`` (KeyError if none)."""
        for v in self.variants:
            if v.name == name:
                return v
        raise KeyError(name)


def _card_files(directory: Path) -> tuple[list[str], list[str]]:
    """(card files, other YAML files) in a variant directory, by name."""
    names = sorted(p.name for p in directory.glob("*.yaml"))
    cards = [n for n in names if n in CARD_FILES]
    vehicles = sorted(p.name for p in (directory / "vehicles").glob("*.yaml"))
    cards += [f"vehicles/{n}" for n in vehicles]
    return cards, [n for n in names if n not in CARD_FILES]


def _scenario_path(scenario: str) -> str:
    """Check that ``scenario`` is a shipped id or a scenario file; BatchError naming the shipped ids."""
    p = Path(scenario)
    if p.is_file():
        return scenario
    ids = [s.stem for s in shipped_scenarios()]
    if scenario in ids:
        return scenario
    raise BatchError(f"unknown scenario {scenario!r}: not a file, nor a shipped scenario ({', '.join(ids)})")


def prepare(
    scenario: str,
    variants: Sequence[Variant] = (),
    *,
    policy: str = "simple",
    turns: int | None = None,
) -> BatchSpec:
    """Load every variant's data and the scenario against it; check the policy and turns.

    ``variants`` defaults to one, ``house`` (the shipped cards). Raises
    :class:`BatchError` for an unknown scenario or policy, duplicate variant
    names, a variant directory that is missing or holds no card file, and
    :class:`~solo.core.errors.DataError` (every problem, with its file and line) for a
    broken card file or a scenario the variant's cards cannot play.
    """
    if policy not in POLICIES:
        raise BatchError(f"--policy {policy!r}: a batch plays {', '.join(POLICIES[:-1])} or {POLICIES[-1]}")
    if turns is not None and turns < 1:
        raise BatchError(f"--turns {turns}: must be at least 1")
    scenario = _scenario_path(str(scenario))
    variants = list(variants) or [Variant("house")]
    names = [v.name for v in variants]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise BatchError(f"variant name(s) given twice: {', '.join(dup)}")
    ignored: dict[str, tuple[str, ...]] = {}
    for v in variants:  # every directory checked before any data is loaded
        if v.cards is None:
            continue
        if not v.cards.is_dir():
            raise BatchError(f"variant {v.name}: {v.cards} is not a directory")
        cards, others = _card_files(v.cards)
        if not cards:
            raise BatchError(
                f"variant {v.name}: {v.cards} holds no card file (expected one or more of "
                f"{', '.join(CARD_FILES)} or vehicles/*.yaml"
                + (f"; found only {', '.join(others)}" if others else "")
                + ")"
            )
        ignored[v.name] = tuple(others)
    out: list[PreparedVariant] = []
    loaded: dict[Path | None, HouseData] = {}
    for v in variants:
        key = v.cards.resolve() if v.cards is not None else None
        data = loaded.get(key)
        if data is None:
            data = loaded[key] = load_data(cards=v.cards)
        sc = load_scenario(scenario, data)
        if turns is not None:
            sc = attrs.evolve(sc, turns=turns)
        out.append(
            PreparedVariant(
                v.name,
                data,
                sc,
                cards=str(v.cards) if v.cards is not None else "house",
                ignored=ignored.get(v.name, ()),
            )
        )
    return BatchSpec(scenario, tuple(out), policy, turns)
