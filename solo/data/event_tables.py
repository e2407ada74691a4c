"""The Event tables as data (base-rules §18; ``cards/events.yaml``): :func:`load_event_tables`.

May import: :mod:`solo.core`, :mod:`solo.data.friendly_deck` (which table an Event card rolls on).
"""

from __future__ import annotations

import enum
import functools
from pathlib import Path

import attrs

from solo.core.bounds import COUNT, D10, MODIFIER
from solo.core.datafile import DataFile, DocPath, Problems, read_card_file, structure
from solo.data.friendly_deck import EventTable


class Calibre(enum.Enum):
    """Off-board artillery and mortar calibres (base-rules §14)."""

    MM60 = "60mm"
    MM81 = "81mm"
    MM105 = "105mm"


class EventKind(enum.Enum):
    """What an Event table entry does (base-rules §18 "Event tables")."""

    HEAL_LIGHT_WOUND = "heal_light_wound"
    AMMO = "ammo"
    EXTRA_CARD = "extra_card"
    SUPPORT_FIRE = "support_fire"
    MORALE_NEAR_LEADER = "morale_near_leader"
    REVEAL_ENEMY = "reveal_enemy"
    OTHER_TABLE = "other_table"
    ILLUMINATION = "illumination"
    WEATHER = "weather"
    REINFORCEMENTS = "reinforcements"
    MINEFIELD_MC = "minefield_mc"
    NOTHING = "nothing"


class WeatherKind(enum.Enum):
    """A weather an event may bring (C2 28.1)."""

    CLEAR = "clear"
    RAIN = "rain"
    HEAVY_RAIN = "heavy_rain"
    MIST = "mist"
    FOG = "fog"


_KIND_FIELDS: dict[EventKind, tuple[str, ...]] = {
    EventKind.HEAL_LIGHT_WOUND: ("count",),
    EventKind.AMMO: ("count",),
    EventKind.EXTRA_CARD: ("count",),
    EventKind.SUPPORT_FIRE: ("calibre", "rounds"),
    EventKind.MORALE_NEAR_LEADER: ("value",),
    EventKind.WEATHER: ("weather",),
    EventKind.MINEFIELD_MC: ("count",),
}
_OPTIONAL_FIELDS = ("count", "calibre", "rounds", "value", "weather")
_REQUIRED_FIELDS: dict[EventKind, tuple[str, ...]] = {
    EventKind.SUPPORT_FIRE: ("calibre", "rounds"),
    EventKind.WEATHER: ("weather",),
}
ROUNDS_DICE: tuple[str, ...] = ("d6", "d10")
"""How the number of rounds of support fire is rolled (base-rules §14)."""


@attrs.frozen
class EventEntry:
    """One line of an Event table: the d10 ``roll`` (0-9) it answers and what it does."""

    roll: D10
    kind: EventKind
    title: str
    text: str
    count: COUNT = 1
    """Characters (or cards) affected by heal_light_wound, ammo, extra_card."""
    value: MODIFIER = 1
    """Morale State steps of morale_near_leader (+ better)."""
    calibre: Calibre | None = None
    """support_fire: the calibre (§14)."""
    rounds: str | None = None
    """support_fire: ``"d6"`` or ``"d10"`` rounds (a 0 on the d10 is none)."""
    weather: WeatherKind | None = None
    """weather: the new weather (C2 28.1)."""


@attrs.frozen
class EventTables:
    """The Friendly and Enemy Event tables (ten entries each, rolls 0-9)."""

    friendly: tuple[EventEntry, ...]
    enemy: tuple[EventEntry, ...]
    edition: str = "house"
    source: str = "cards/events.yaml"
    variants: dict[str, dict[str, tuple[EventEntry, ...]]] = attrs.field(factory=dict)
    """Variant tables by side (``friendly``/``enemy``) and variant name (``attacking``,
    ``defending``, ``meeting``; base-rules §18). A variant not given reads the side's main table."""

    def table(self, which: EventTable, variant: str | None = None) -> tuple[EventEntry, ...]:
        """The entries of the Friendly or the Enemy table (its ``variant`` if the file has one)."""
        own = self.variants.get(which.value, {}).get(variant) if variant is not None else None
        if own is not None:
            return own
        return self.friendly if which is EventTable.FRIENDLY else self.enemy

    def has_variant(self, which: EventTable, variant: str) -> bool:
        """Whether the file gives ``which``'s table its own ``variant``."""
        return variant in self.variants.get(which.value, {})

    def entry(self, which: EventTable, roll: int, variant: str | None = None) -> EventEntry:
        """The entry of table ``which`` (its ``variant``) for a d10 ``roll`` (0-9). Raises ``KeyError``."""
        for e in self.table(which, variant):
            if e.roll == roll:
                return e
        raise KeyError(f"no {which.value} event entry for roll {roll}")


@attrs.frozen
class _EventsFile:
    edition: str
    friendly: tuple[EventEntry, ...]
    enemy: tuple[EventEntry, ...]
    variants: dict[str, dict[str, tuple[EventEntry, ...]]] = attrs.field(factory=dict)


VARIANTS: tuple[str, ...] = ("attacking", "defending", "meeting")
"""Event-table variant names (base-rules §18) [house names]; as the scenario's ``events``."""


def load_event_tables(path: Path | str | None = None) -> EventTables:
    """Load and check the Event tables (``cards/events.yaml`` when ``path`` is None).

    Checks (base-rules §18): ten entries per table, one for each roll 0-9; the fields each kind
    needs (support_fire: calibre and rounds d6/d10; weather: weather) and no field it does not
    use; counts 1 or more, a non-zero morale value; extra_card on the Friendly table only;
    non-empty titles and texts. Raises :class:`~solo.core.errors.DataError` listing every problem
    with its ``path:line``.
    """
    doc = read_card_file(path, "events.yaml")
    raw = structure(doc, _EventsFile)
    probs = Problems()
    for name in ("friendly", "enemy"):
        _check_table(doc, probs, (name,), getattr(raw, name), name)
    for side, by_variant in raw.variants.items():
        if side not in ("friendly", "enemy"):
            probs.add(doc, ("variants", side), f"{side!r} is not a side (friendly or enemy)", at_key=True)
            continue
        for variant, entries in by_variant.items():
            if variant not in VARIANTS:
                probs.add(
                    doc,
                    ("variants", side, variant),
                    f"{variant!r} is not a variant ({', '.join(VARIANTS)})",
                    at_key=True,
                )
            _check_table(doc, probs, ("variants", side, variant), entries, side)
    probs.raise_if_any()
    return EventTables(raw.friendly, raw.enemy, edition=raw.edition, source=doc.name, variants=raw.variants)


def _check_table(
    doc: DataFile, probs: Problems, path: tuple[str, ...], entries: tuple[EventEntry, ...], name: str
) -> None:
    """One d10 table at ``path`` of the file, of side ``name`` (the checks of :func:`load_event_tables`)."""
    seen: dict[int, int] = {}
    data = doc.data
    for key in path:
        data = data[key]
    for i, e in enumerate(entries):
        where: DocPath = (*path, i)
        if not 0 <= e.roll <= 9:
            probs.add(doc, (*where, "roll"), f"roll {e.roll} outside 0-9 (a d10 face)")
        elif e.roll in seen:
            first = doc.line_of((*path, seen[e.roll], "roll"))
            probs.add(doc, (*where, "roll"), f"roll {e.roll} repeated (first on line {first})")
        else:
            seen[e.roll] = i
        for key in ("title", "text"):
            if not getattr(e, key).strip():
                probs.add(doc, (*where, key), f"{key} must not be empty")
        written = data[i] if isinstance(data[i], dict) else {}
        allowed = _KIND_FIELDS.get(e.kind, ())
        for key in _OPTIONAL_FIELDS:
            if key in written and key not in allowed:
                probs.add(
                    doc,
                    (*where, key),
                    f"{key!r} does not apply to kind {e.kind.value!r}"
                    + (f" (it takes: {', '.join(allowed)})" if allowed else " (it takes no options)"),
                    at_key=True,
                )
        for key in _REQUIRED_FIELDS.get(e.kind, ()):
            if key not in written:
                probs.add(doc, where, f"kind {e.kind.value!r} needs {key!r}")
        if e.count < 1:
            probs.add(doc, (*where, "count"), f"count must be 1 or more, got {e.count}")
        if e.value == 0:
            probs.add(doc, (*where, "value"), "value must not be 0")
        if e.rounds is not None and e.rounds not in ROUNDS_DICE:
            probs.add(doc, (*where, "rounds"), f"rounds {e.rounds!r} must be one of: d6, d10")
        if e.kind is EventKind.EXTRA_CARD and name == "enemy":
            probs.add(doc, (*where, "kind"), "extra_card gives Friendly cards: Friendly table only")
    missing = [r for r in range(10) if r not in seen]
    if missing or len(entries) != 10:
        probs.add(
            doc,
            path,
            f"the {' '.join(path)} table needs ten entries, one per roll 0-9 (has {len(entries)}"
            + (f"; missing rolls {', '.join(map(str, missing))}" if missing else "")
            + ")",
            at_key=True,
        )


@functools.cache
def _shipped_event_tables() -> EventTables:
    return load_event_tables()
