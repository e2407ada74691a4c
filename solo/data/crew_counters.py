"""AFV crew counters (``cards/crews.yaml``; C2 31.3): :class:`Crews`, drawn at random per position.

A :class:`CrewCounter` has a nation, a role, TQ, Leadership (Commanders only, 31.10.9), the Morale
State it starts in and its own weapons with their WS (usually a pistol, 31.9.4 a).
:meth:`Crews.pool` gives the counters of one role of one nation, in file order. :func:`load_crews`
reads and checks the file and raises one :class:`~solo.core.errors.DataError` naming every
problem with its line.

May import: :mod:`solo.core`, :mod:`solo.data.tables` (Morale States), :mod:`solo.data.weapons`
(nations), :mod:`solo.data.vehicle_types` (roles).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import ClassVar

import attrs

from solo.core.bounds import LDR, TQ, WS
from solo.core.catalog import Catalog
from solo.core.datafile import (
    SNAKE_ID,
    DataFile,
    DocPath,
    Problems,
    check_unique,
    read_card_file,
    structure,
)
from solo.data.tables import MoraleState
from solo.data.vehicle_types import Role
from solo.data.weapons import Nation

CREWS_FILE = "crews.yaml"
"""The crew counters file under ``cards/``."""


@attrs.frozen
class CrewWeapon:
    """A crewman's own weapon (usually a pistol, 31.9.4 a) and his WS with it."""

    weapon: str
    ws: WS


@attrs.frozen
class CrewCounter:
    """An AFV crew counter (C2 31.3): drawn at random for its position."""

    id: str
    name: str
    nation: Nation
    role: Role
    tq: TQ
    ldr: LDR
    """Leadership; Commanders only (modifies the crew's MCs, 31.10.9)."""
    morale: MoraleState
    """The Morale State the counter starts in."""
    weapons: tuple[CrewWeapon, ...]


@attrs.frozen
class Crews(Catalog):
    """The crew counter pools, by nation and role; the counters by id (:meth:`get`, ``in``, iteration)."""

    _ITEMS: ClassVar[str] = "counters"
    _WHAT: ClassVar[str] = "crew counter"

    counters: tuple[CrewCounter, ...]
    _by_id: dict[str, CrewCounter] = attrs.field(init=False, eq=False, repr=False)
    _pools: dict[tuple[Nation, Role], tuple[CrewCounter, ...]] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.counters})
        pools: dict[tuple[Nation, Role], list[CrewCounter]] = {}
        for c in self.counters:
            pools.setdefault((c.nation, c.role), []).append(c)
        object.__setattr__(self, "_pools", {k: tuple(v) for k, v in pools.items()})

    def pool(self, nation: Nation | str, role: Role | str) -> tuple[CrewCounter, ...]:
        """The counters to draw from for ``role`` of a ``nation`` AFV, in file order (31.3).

        Raises :class:`KeyError` if there are none.
        """
        key = (Nation(nation), Role(role))
        try:
            return self._pools[key]
        except KeyError:
            raise KeyError(f"no {key[0].value} {key[1].value} crew counters") from None


@attrs.frozen
class _CrewEntry:
    id: str
    name: str
    tq: TQ
    ldr: LDR = 0
    morale: MoraleState = MoraleState.NORMAL
    weapons: tuple[CrewWeapon, ...] = ()
    note: str = ""


@attrs.frozen
class _CrewsFile:
    crews: dict[Nation, dict[Role, tuple[_CrewEntry, ...]]]
    edition: str = "house"


def crews_from(doc: DataFile, weapon_ids: Collection[str] | None = None) -> Crews:
    """Build :class:`Crews` from a read ``crews.yaml``.

    Checks: snake_case ids unique in the file; TQ 1-9; LDR 0-9 and only on Commanders; a
    starting morale better than Rout; WS 0-9 with weapons known (against ``weapon_ids`` if
    given); every nation given has a pool for every role. Raises :class:`DataError` (C2 31.3).
    """
    raw = structure(doc, _CrewsFile)
    probs = Problems()
    check_unique(
        probs,
        doc,
        [
            (("crews", nation.value, role.value, i, "id"), e.id)
            for nation, pools in raw.crews.items()
            for role, entries in pools.items()
            for i, e in enumerate(entries)
        ],
        "duplicate counter id {id!r} (also {first[1]} {first[2]})",
    )
    counters: list[CrewCounter] = []
    known = set(weapon_ids) if weapon_ids is not None else None
    for nation, pools in raw.crews.items():
        for role in Role:
            if not pools.get(role):
                probs.add(doc, ("crews", nation.value), f"no {nation.value} {role.value} counters (31.3)")
        for role, entries in pools.items():
            for i, e in enumerate(entries):
                where: DocPath = ("crews", nation.value, role.value, i)
                if not SNAKE_ID.match(e.id):
                    probs.add(doc, (*where, "id"), f"counter id {e.id!r} must be snake_case")
                if not 1 <= e.tq <= 9:
                    probs.add(doc, (*where, "tq"), f"TQ {e.tq} outside 1-9")
                if not 0 <= e.ldr <= 9:
                    probs.add(doc, (*where, "ldr"), f"LDR {e.ldr} outside 0-9")
                if e.ldr and role is not Role.COMMANDER:
                    probs.add(doc, (*where, "ldr"), "only Commanders have a Leadership value (31.1)")
                if e.morale is MoraleState.ROUT:
                    probs.add(doc, (*where, "morale"), "a crew counter does not start in Rout")
                for j, w in enumerate(e.weapons):
                    if not 0 <= w.ws <= 9:
                        probs.add(doc, (*where, "weapons", j, "ws"), f"WS {w.ws} outside 0-9")
                    if known is not None and w.weapon not in known:
                        probs.add(doc, (*where, "weapons", j, "weapon"), f"unknown weapon {w.weapon!r}")
                counters.append(CrewCounter(e.id, e.name, nation, role, e.tq, e.ldr, e.morale, e.weapons))
    probs.raise_if_any()
    return Crews(tuple(counters))


def load_crews(path: Path | str | None = None, *, weapon_ids: Collection[str] | None = None) -> Crews:
    """Load ``crews.yaml`` (``None``: the shipped file) (C2 31.3).

    ``weapon_ids``: the known weapon ids; ``None`` skips that check. Raises :class:`DataError`.
    """
    return crews_from(read_card_file(path, CREWS_FILE), weapon_ids)


__all__ = [
    "CREWS_FILE",
    "CrewCounter",
    "CrewWeapon",
    "Crews",
    "crews_from",
    "load_crews",
]
