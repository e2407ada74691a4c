"""The weapons chart (``cards/weapons.yaml``; base-rules §10, §12; C2 26.0, 31.10.4, 32).

A :class:`Weapon` has range bands from 1 hex to its maximum range (NA where it cannot fire), a ROF
(and another beyond some range, StG 44), flags (:class:`WeaponFlag`: heavy, belt-fed, AT...), a
scope (:class:`Scope`), a grenade's explosion (§12), and for each kind of round its
penetration dice and, for HE, Blast and Frag (:class:`AmmoProfile`, C2 31.10.4, 31.9.4 d).
:func:`load_weapons` reads and checks the file and raises one :class:`~solo.core.errors.DataError`
naming every problem with its line; :meth:`Weapon.band_modifier` is a tuple lookup.

May import: :mod:`solo.core`, :mod:`solo.data.tables` (the Source tag), :mod:`solo.data.bands`.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, ClassVar

import attrs

from solo.core.bounds import BAND_MODIFIER, COUNT, MODIFIER, RANGE, ROF, WS, Within, bound_of
from solo.core.catalog import Catalog
from solo.core.datafile import SNAKE_ID, DataFile, DocPath, Problems, check_unique, read_card_file, structure
from solo.core.dice_expressions import DiceExpression
from solo.data.bands import RANGE_LIMIT, Bands
from solo.data.tables import Source


class Nation(enum.Enum):
    """Whose weapon it is (informative)."""

    US = "us"
    GERMAN = "german"


class WeaponKind(enum.Enum):
    """What sort of weapon it is."""

    RIFLE = "rifle"
    SMG = "smg"
    PISTOL = "pistol"
    MG = "mg"
    KNIFE = "knife"
    GRENADE = "grenade"
    SMOKE_GRENADE = "smoke_grenade"
    RIFLE_GRENADE = "rifle_grenade"
    LIGHT_AT = "light_at"
    MAIN_GUN = "main_gun"

    @property
    def is_small_arms(self) -> bool:
        """Pistols, SMGs, rifles and MGs (C2 31.8: may fire at open hatches)."""
        return self in (WeaponKind.RIFLE, WeaponKind.SMG, WeaponKind.PISTOL, WeaponKind.MG)


_THROWN = (WeaponKind.GRENADE, WeaponKind.SMOKE_GRENADE)


class WeaponFlag(enum.Enum):
    """Weapon flags of the weapons chart."""

    HEAVY = "heavy"
    """No Sprint (base-rules §4; C2 32.3)."""
    VERY_HEAVY = "very_heavy"
    """No Sprint or Run & Gun (base-rules §4; C2 32.3)."""
    BELT = "belt"
    """Belt-fed MG: assistant rule 14.3."""
    SLOW = "slow"
    """Forbids Rapid Fire to Friendly characters (§20 Q9)."""
    PISTOL = "pistol"
    """Never loses ammo."""
    AT = "at"
    """Light anti-tank weapon (C2 32)."""
    ONE_SHOT = "one_shot"
    """Discarded after one shot (Panzerfaust)."""
    NO_AMMO = "no_ammo"
    """Has no ammunition state (knife)."""


class AmmoKind(enum.Enum):
    """Kind of round, for penetration and damage tables (C2 31.10)."""

    HE = "he"
    AP = "ap"
    HEAT = "heat"
    SMALL_ARMS = "small_arms"


@attrs.frozen
class RofBeyond:
    """ROF ``rof`` beyond ``range`` hexes (StG 44: 1 beyond 13, C2 26.0)."""

    range: RANGE
    rof: ROF


@attrs.frozen
class Scope:
    """``modifier`` added to Aimed Fire beyond ``beyond`` hexes (M1903: +1 beyond 3, C2 26.0)."""

    beyond: RANGE
    modifier: MODIFIER


@attrs.frozen
class GrenadeBlast:
    """The §12 explosion: Near ``near_dice`` at Frag ``near_frag``, Far ``far_dice`` at ``far_frag``."""

    near_dice: COUNT
    near_frag: WS
    far_dice: COUNT
    far_frag: WS


@attrs.frozen
class AmmoProfile:
    """One kind of round: penetration dice (C2 31.10.4) and, for HE, Blast and Frag (C2 31.9.4 d)."""

    kind: AmmoKind
    penetration: DiceExpression
    """Penetration dice (``5+1d6``), read by :class:`solo.core.dice.DiceExpression`."""
    blast: WS | None
    frag: WS | None


@attrs.frozen
class Weapon:
    """A weapon of the weapons chart (base-rules §10): range, ROF, flags, bands, ammunition."""

    id: str
    name: str
    nation: Nation | None
    kind: WeaponKind
    max_range: RANGE
    """No fire beyond this many hexes."""
    rof: ROF | None
    """Attacks per fire action; ``None`` for thrown weapons (§12)."""
    rof_beyond: RofBeyond | None
    flags: tuple[WeaponFlag, ...]
    bands: Bands | None
    """Range bands from 1 to ``max_range``; ``None`` = no range modifier."""
    ws_from_tq: bool
    """The WS is the firer's TQ (thrown knife, C2 24.1)."""
    scope: Scope | None
    grenade: GrenadeBlast | None
    ammo: tuple[AmmoProfile, ...]
    source: Source
    rule: str
    notes: str
    _band_table: tuple[int | None, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if not 1 <= self.max_range <= RANGE_LIMIT:
            raise ValueError(f"max_range {self.max_range} outside 1-{RANGE_LIMIT}")
        if self.bands is None:
            table: tuple[int | None, ...] = (None,) + (0,) * self.max_range
        else:
            if self.bands.first != 1 or self.bands.last != self.max_range:
                raise ValueError(f"bands must run from 1 to max_range {self.max_range}")
            table = tuple(self.bands.modifier(r) for r in range(self.max_range + 1))
        object.__setattr__(self, "_band_table", table)

    def band_modifier(self, range_hexes: int) -> int | None:
        """The range-band WS modifier at ``range_hexes`` (base-rules §10 row 1).

        ``None`` means the weapon cannot fire there: an NA band, range 0, or beyond max range.
        """
        table = self._band_table
        return table[range_hexes] if 0 <= range_hexes < len(table) else None

    def in_range(self, range_hexes: int) -> bool:
        """True if the weapon may fire at ``range_hexes`` (within max range, not NA)."""
        return self.band_modifier(range_hexes) is not None

    def rof_at(self, range_hexes: int) -> int | None:
        """ROF at ``range_hexes`` (StG 44: 3 to 13 hexes, 1 beyond, C2 26.0); ``None`` if thrown."""
        if self.rof_beyond is not None and range_hexes > self.rof_beyond.range:
            return self.rof_beyond.rof
        return self.rof

    def aimed_modifier(self, range_hexes: int) -> int:
        """Scope bonus to Aimed Fire at ``range_hexes`` (M1903 +1 beyond 3, C2 26.0), else 0."""
        if self.scope is not None and range_hexes > self.scope.beyond:
            return self.scope.modifier
        return 0

    def has_flag(self, flag: WeaponFlag) -> bool:
        """True if the weapon carries ``flag``."""
        return flag in self.flags

    def ammo_of(self, kind: AmmoKind) -> AmmoProfile:
        """The round of ``kind``. Raises :class:`KeyError` if the weapon has none."""
        for ammo in self.ammo:
            if ammo.kind is kind:
                return ammo
        raise KeyError(f"{self.id} has no {kind.value} ammunition")


@attrs.frozen
class WeaponTable(Catalog):
    """All weapons, by id (:meth:`get`, ``in``, iteration in file order)."""

    _ITEMS: ClassVar[str] = "weapons"
    _WHAT: ClassVar[str] = "weapon"

    weapons: tuple[Weapon, ...]
    source: str = attrs.field(default="cards/weapons.yaml", eq=False, repr=False)
    """The file the weapons were read from, as problems name it."""
    _by_id: dict[str, Weapon] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {w.id: w for w in self.weapons})


@attrs.frozen
class AmmoEntry:
    """One round of ``ammo`` in ``weapons.yaml`` as written."""

    pen: str
    blast: WS | None = None
    frag: WS | None = None


@attrs.frozen
class WeaponEntry:
    """One entry of ``weapons.yaml`` as written (see the file's header)."""

    id: str
    name: str
    kind: WeaponKind
    max_range: RANGE
    rof: ROF | None
    bands: Annotated[str, Within(bound_of(BAND_MODIFIER))] | None
    source: Source
    nation: Nation | None = None
    rof_beyond: RofBeyond | None = None
    flags: tuple[WeaponFlag, ...] = ()
    ws_from_tq: bool = False
    scope: Scope | None = None
    grenade: GrenadeBlast | None = None
    ammo: dict[str, AmmoEntry] = attrs.field(factory=dict)
    rule: str = ""
    notes: str = ""


@attrs.frozen
class WeaponsFile:
    """``weapons.yaml`` as written."""

    weapons: tuple[WeaponEntry, ...]


def _entry_weapon(doc: DataFile, probs: Problems, i: int, e: WeaponEntry) -> Weapon | None:
    at: DocPath = ("weapons", i)
    before = len(probs.items)
    if not SNAKE_ID.match(e.id):
        probs.add(doc, (*at, "id"), f"weapon id {e.id!r} must be snake_case")
    if not 1 <= e.max_range <= RANGE_LIMIT:
        probs.add(doc, (*at, "max_range"), f"max_range {e.max_range} outside 1-{RANGE_LIMIT}")
    thrown = e.kind in _THROWN
    if e.rof is None and not thrown:
        probs.add(doc, (*at, "rof"), "rof is required (at least 1) except for thrown weapons")
    elif e.rof is not None and e.rof < 1:
        probs.add(doc, (*at, "rof"), f"rof must be at least 1, got {e.rof}")
    if e.rof_beyond is not None:
        if e.rof is None:
            probs.add(doc, (*at, "rof_beyond"), "rof_beyond needs a rof")
        if not 1 <= e.rof_beyond.range < e.max_range:
            probs.add(
                doc,
                (*at, "rof_beyond", "range"),
                f"rof_beyond range must be 1 to max_range - 1 ({e.max_range - 1})",
            )
        if e.rof_beyond.rof < 1:
            probs.add(doc, (*at, "rof_beyond", "rof"), "rof_beyond rof must be at least 1")
    if len(set(e.flags)) != len(e.flags):
        probs.add(doc, (*at, "flags"), "a flag is listed twice")
    if (WeaponFlag.PISTOL in e.flags) != (e.kind is WeaponKind.PISTOL):
        probs.add(doc, (*at, "flags"), "flag pistol goes with kind pistol, and only with it")
    bands: Bands | None = None
    if e.bands is None:
        if not thrown:
            probs.add(doc, (*at, "bands"), "bands are required except for thrown weapons")
    elif 1 <= e.max_range <= RANGE_LIMIT:
        try:
            bands = Bands.parse(e.bands, start=1, end=e.max_range)
        except ValueError as exc:
            probs.add(doc, (*at, "bands"), str(exc))
    if e.ws_from_tq and e.bands is None:
        probs.add(doc, (*at, "ws_from_tq"), "ws_from_tq needs bands (WS = TQ + band)")
    if e.scope is not None and not 0 <= e.scope.beyond < e.max_range:
        probs.add(doc, (*at, "scope", "beyond"), "scope beyond must be 0 to max_range - 1")
    if e.grenade is not None:
        g = e.grenade
        if min(g.near_dice, g.far_dice) < 0 or min(g.near_frag, g.far_frag) < 0:
            probs.add(doc, (*at, "grenade"), "grenade dice and frag values cannot be negative")
    ammo: list[AmmoProfile] = []
    for key, entry in e.ammo.items():
        where = (*at, "ammo", key)
        try:
            kind = AmmoKind(key)
        except ValueError:
            probs.add(
                doc,
                where,
                f"unknown ammunition {key!r} (expected one of: {', '.join(k.value for k in AmmoKind)})",
                at_key=True,
            )
            continue
        try:
            pen = DiceExpression.parse(entry.pen)
        except ValueError as exc:
            probs.add(doc, (*where, "pen"), str(exc))
            continue
        he = kind is AmmoKind.HE
        if he and (entry.blast is None or entry.frag is None):
            probs.add(doc, where, "HE needs blast and frag (C2 31.9.4 d)")
        elif not he and (entry.blast is not None or entry.frag is not None):
            probs.add(doc, where, f"{kind.value} has no blast or frag (only HE)")
        elif (
            he and entry.blast is not None and entry.frag is not None and (entry.blast < 0 or entry.frag < 0)
        ):
            probs.add(doc, where, "blast and frag cannot be negative")
        ammo.append(AmmoProfile(kind, pen, entry.blast, entry.frag))
    if len(probs.items) != before:
        return None
    return Weapon(
        id=e.id,
        name=e.name,
        nation=e.nation,
        kind=e.kind,
        max_range=e.max_range,
        rof=e.rof,
        rof_beyond=e.rof_beyond,
        flags=e.flags,
        bands=bands,
        ws_from_tq=e.ws_from_tq,
        scope=e.scope,
        grenade=e.grenade,
        ammo=tuple(ammo),
        source=e.source,
        rule=e.rule,
        notes=e.notes,
    )


def weapons_from(doc: DataFile) -> WeaponTable:
    """Build the :class:`WeaponTable` from a read ``weapons.yaml``.

    Checks: snake_case unique ids; max range and ROF at least 1; bands contiguous from 1 to
    max range (no gaps or overlaps; NA allowed); penetration dice like ``5+1d6``; HE with
    Blast and Frag. Raises :class:`DataError` listing every problem (base-rules §10).
    """
    raw = structure(doc, WeaponsFile)
    probs = Problems()
    weapons: list[Weapon] = []
    check_unique(
        probs,
        doc,
        [(("weapons", i, "id"), e.id) for i, e in enumerate(raw.weapons)],
        "duplicate weapon id {id!r} (first in entry {number})",
    )
    for i, e in enumerate(raw.weapons):
        weapon = _entry_weapon(doc, probs, i, e)
        if weapon is not None:
            weapons.append(weapon)
    probs.raise_if_any()
    return WeaponTable(tuple(weapons), source=doc.name)


WEAPONS_FILE = "weapons.yaml"


def load_weapons(path: Path | str | None = None) -> WeaponTable:
    """Load ``weapons.yaml`` (``None``: the shipped file). Raises :class:`DataError` (base-rules §10)."""
    return weapons_from(read_card_file(path, WEAPONS_FILE))
