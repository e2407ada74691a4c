"""Character profiles (``cards/characters.yaml``; base-rules §3; C2 24.0, 25.0): :class:`CharacterBook`.

The Friendly squad members of C2 25.0 (:class:`FriendlyProfile`) and the New Character Selection
Table that rolls them into Able, Baker and Charlie (:class:`SelectionTable`); the Enemy counters
1-21 (:class:`CounterProfile`) and their SS counterparts (C2 24.0). Each has house-edition
values: TQ, LDR, weapons with their WS, skills (:class:`Skill`), MG team role (14.3), trained
medic. Scenarios name them by profile id or counter number. :func:`load_characters` reads and
checks the file and raises one :class:`~solo.core.errors.DataError` naming every problem with
its line; :func:`check_stats` is the TQ, LDR and WS check a scenario's written-out characters
share with the profiles.

May import: :mod:`solo.core`, :mod:`solo.data.weapons`.
"""

from __future__ import annotations

import enum
import functools
from pathlib import Path
from typing import Any

import attrs

from solo.core.bounds import COUNTER, D10, LDR, TQ, WS
from solo.core.datafile import (
    SNAKE_ID,
    DataFile,
    DocPath,
    Problems,
    check_unique,
    converter,
    read_card_file,
    str_enum_hook,
    structure,
)
from solo.data.weapons import WeaponTable, load_weapons

ROLLED_TEAMS: tuple[str, ...] = ("able", "baker", "charlie")
"""The teams the C2 25.0 New Character Selection Table fills."""


_MAX_REROLLS = 100
"""How many 9s in a row the selection-table roll tolerates before giving up (ChanceError)."""


class Skill(enum.StrEnum):
    """Character skills: the closed list (base-rules §3; C2 24.1; campaign skills)."""

    TOUGH = "tough"
    MEDIC = "medic"
    EAGLE_EYES = "eagle_eyes"
    SNIPER = "sniper"
    DODGE = "dodge"
    DODGE_2 = "dodge_2"
    KNIFE_EXPERT = "knife_expert"
    DEADLY = "deadly"
    WINTER_CAMOUFLAGE = "winter_camouflage"
    DRIVE = "drive"


class MgRole(enum.StrEnum):
    """Place in a belt-fed machine-gun team (14.3)."""

    OPERATOR = "operator"
    ASSISTANT = "assistant"


class CounterRole(enum.StrEnum):
    """What an Enemy counter stands for (a label; base-rules §3 typical profiles)."""

    OFFICER = "officer"
    NCO = "nco"
    VETERAN = "veteran"
    RIFLEMAN = "rifleman"
    RECRUIT = "recruit"
    MG_OPERATOR = "mg_operator"
    MG_ASSISTANT = "mg_assistant"
    SNIPER = "sniper"


for _cls in (Skill, MgRole, CounterRole):
    converter.register_structure_hook(_cls, str_enum_hook)


@attrs.frozen
class WeaponSpec:
    """A weapon and the character's WS for it (``{weapon: m1_garand, ws: 5}``, base-rules §3)."""

    weapon: str
    """Weapon id of ``cards/weapons.yaml``."""
    ws: WS
    """Weapon Skill, 0-9."""


@attrs.frozen
class FriendlyProfile:
    """A Friendly squad member of C2 25.0 with house-edition values."""

    id: str
    """Stable snake_case id (``"sgt_taylor"``): how the table and scenarios name him."""
    name: str
    tq: TQ
    weapons: tuple[WeaponSpec, ...] = ()
    ldr: LDR = 0
    skills: tuple[Skill, ...] = ()
    mg_role: MgRole | None = None
    trained_medic: bool = False


@attrs.frozen
class CounterProfile:
    """An Enemy counter 1–21 (or its SS counterpart, C2 24.0) with house-edition values."""

    counter: COUNTER
    """The counter number 1–21."""
    role: CounterRole
    name: str
    tq: TQ
    weapons: tuple[WeaponSpec, ...] = ()
    ldr: LDR = 0
    skills: tuple[Skill, ...] = ()
    mg_role: MgRole | None = None
    trained_medic: bool = False


@attrs.frozen
class SelectionRow:
    """One row of the C2 25.0 table: the d10 face and the members of Able, Baker, Charlie."""

    roll: D10
    """The d10 face 0–9."""
    able: tuple[str, ...] = ()
    baker: tuple[str, ...] = ()
    charlie: tuple[str, ...] = ()
    reroll: bool = False
    """This face means: roll again (the 9 of C2 25.0)."""

    def members(self, team: str) -> tuple[str, ...]:
        """Profile ids of ``team`` (``"able"``, ``"baker"``, ``"charlie"``) in this row."""
        return getattr(self, team) if team in ROLLED_TEAMS else ()


@attrs.frozen
class SelectionTable:
    """The C2 25.0 New Character Selection Table: one row per d10 face."""

    rows: tuple[SelectionRow, ...]
    rule: str = "C2 25.0"

    def row(self, face: int) -> SelectionRow:
        """The row for d10 ``face`` (0–9). Raises KeyError for a face without a row."""
        for r in self.rows:
            if r.roll == face:
                return r
        raise KeyError(f"no row for d10 face {face}")


@attrs.frozen
class _CharactersFile:
    friendly: tuple[FriendlyProfile, ...]
    selection_table: SelectionTable
    enemy: tuple[CounterProfile, ...]
    elite: tuple[CounterProfile, ...]


@attrs.frozen
class CharacterBook:
    """Every house character profile: the squad (C2 25.0), Enemy counters 1–21 and SS (C2 24.0)."""

    friendly: tuple[FriendlyProfile, ...]
    selection_table: SelectionTable
    enemy: tuple[CounterProfile, ...]
    elite: tuple[CounterProfile, ...]
    source: str = "cards/characters.yaml"

    @functools.cached_property
    def _by_id(self) -> dict[str, FriendlyProfile]:
        return {p.id: p for p in self.friendly}

    def profile(self, profile_id: str) -> FriendlyProfile | None:
        """The Friendly profile ``profile_id``, or None."""
        return self._by_id.get(profile_id)

    def counter(self, number: int, *, elite: bool = False) -> CounterProfile | None:
        """Enemy counter ``number`` (1–21), or its SS counterpart when ``elite``; None if absent."""
        for p in self.elite if elite else self.enemy:
            if p.counter == number:
                return p
        return None


CHARACTERS_FILE = "characters.yaml"


def load_characters(path: Path | str | None = None, weapons: WeaponTable | None = None) -> CharacterBook:
    """Load and check ``cards/characters.yaml`` (or ``path``).

    Checks: snake_case unique profile ids; TQ 1–9, LDR 0–9, WS 0–9; known weapons
    (against ``weapons``, default the shipped table); a selection-table row for
    each d10 face 0–9 exactly once, re-roll rows empty, others naming known
    profiles with no one twice in a row; counters 1–21 exactly once among the
    Enemy and once among the elite. Raises :class:`DataError` with every problem.
    """
    doc = read_card_file(path, CHARACTERS_FILE)
    raw = structure(doc, _CharactersFile)
    if weapons is None:
        weapons = load_weapons()
    probs = Problems()
    seen = check_unique(
        probs,
        doc,
        [(("friendly", i, "id"), prof.id) for i, prof in enumerate(raw.friendly)],
        "duplicate profile id {id!r} (also entry {index})",
    )
    for i, prof in enumerate(raw.friendly):
        where: DocPath = ("friendly", i)
        if not SNAKE_ID.match(prof.id):
            probs.add(doc, (*where, "id"), f"profile id {prof.id!r} must be snake_case")
        check_stats(doc, probs, where, prof, weapons)
    faces: dict[int, int] = {}
    for i, row in enumerate(raw.selection_table.rows):
        where = ("selection_table", "rows", i)
        if not 0 <= row.roll <= 9:
            probs.add(doc, (*where, "roll"), f"roll {row.roll} is not a d10 face 0-9")
        elif row.roll in faces:
            probs.add(doc, (*where, "roll"), f"roll {row.roll} has two rows (also entry {faces[row.roll]})")
        faces.setdefault(row.roll, i)
        members = [(t, k, m) for t in ROLLED_TEAMS for k, m in enumerate(row.members(t))]
        if row.reroll and members:
            probs.add(doc, where, f"roll {row.roll} is a re-roll: it must not name members")
        if not row.reroll and not members:
            probs.add(doc, where, f"roll {row.roll} names no members (or set reroll: true)")
        in_row: set[str] = set()
        for t, k, m in members:
            if m not in seen:
                probs.add(doc, (*where, t, k), f"unknown profile {m!r} (not in friendly:)")
            if m in in_row:
                probs.add(doc, (*where, t, k), f"{m!r} is named twice in roll {row.roll}")
            in_row.add(m)
    missing = [f for f in range(10) if f not in faces]
    if missing:
        probs.add(
            doc,
            ("selection_table", "rows"),
            f"no row for d10 face(s) {', '.join(map(str, missing))} (every face 0-9 needs one)",
        )
    if faces and all(raw.selection_table.rows[i].reroll for i in faces.values()):
        probs.add(doc, ("selection_table", "rows"), "every row is a re-roll")
    for key, counters in (("enemy", raw.enemy), ("elite", raw.elite)):
        numbers = check_unique(
            probs,
            doc,
            [((key, i, "counter"), cprof.counter) for i, cprof in enumerate(counters)],
            "counter {id} given twice (also entry {index})",
        )
        for i, cprof in enumerate(counters):
            where = (key, i)
            if not 1 <= cprof.counter <= 21:
                probs.add(doc, (*where, "counter"), f"counter {cprof.counter} outside 1-21")
            check_stats(doc, probs, where, cprof, weapons)
        absent = [n for n in range(1, 22) if n not in numbers]
        if absent:
            probs.add(doc, (key,), f"{key}: no profile for counter(s) {', '.join(map(str, absent))}")
    probs.raise_if_any()
    return CharacterBook(raw.friendly, raw.selection_table, raw.enemy, raw.elite, source=doc.name)


def check_stats(doc: DataFile, probs: Problems, where: DocPath, c: Any, weapons: Any) -> None:
    """TQ, LDR, WS bounds and known weapons of a profile or an explicit character."""
    if c.tq is not None and not 1 <= c.tq <= 9:
        probs.add(doc, (*where, "tq"), f"TQ {c.tq} outside 1-9")
    if not 0 <= c.ldr <= 9:
        probs.add(doc, (*where, "ldr"), f"LDR {c.ldr} outside 0-9")
    for k, w in enumerate(c.weapons):
        if w.weapon not in weapons:
            probs.add(
                doc,
                (*where, "weapons", k, "weapon"),
                f"unknown weapon {w.weapon!r} (not in {getattr(weapons, 'source', 'cards/weapons.yaml')})",
            )
        if not 0 <= w.ws <= 9:
            probs.add(doc, (*where, "weapons", k, "ws"), f"WS {w.ws} outside 0-9")


@functools.cache
def _shipped_book() -> CharacterBook:
    return load_characters()


def _book_for(data: Any, characters: CharacterBook | None) -> CharacterBook:
    if characters is not None:
        return characters
    book = getattr(data, "characters", None)
    return book if isinstance(book, CharacterBook) else _shipped_book()


__all__ = [
    "ROLLED_TEAMS",
    "CharacterBook",
    "CounterProfile",
    "CounterRole",
    "FriendlyProfile",
    "MgRole",
    "SelectionRow",
    "SelectionTable",
    "Skill",
    "WeaponSpec",
    "check_stats",
    "load_characters",
]
