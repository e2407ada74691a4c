"""The Enemy Order deck as data (``cards/enemy_orders.yaml``; base-rules §5), and direction strings (§6).

Enemy Order cards (base-rules §5): 50 cards, each with one odd initiative
1-99 (the brown circle), a ``cover`` and an ``open`` table of five morale rows
(:class:`CardRow`), a rout string and a berserk string. A row is an
:class:`EnemyOrderEntry` written in the YAML as a short string::

    "RG 5/6 GC"   order code, direction string, flags G (Grenade check) and C (Charge check)
    "AF G"        a fire order: no direction string
    "HI"          no flags

:class:`DirectionString` (``X`` or ``X/Y``, read through a Direction Counter, §6) is also used
by the VOM and scenarios. Reading a deck file (:func:`read_deck_head`, :func:`structure_cards`,
:func:`check_card_ids`) is shared with the Friendly deck (:mod:`solo.data.friendly_deck`).
:func:`load_enemy_deck` reads the YAML, structures it into the frozen classes below and checks
the deck as a whole; every problem is reported at once as a
:class:`~solo.core.errors.DataError` naming the file and the line. :func:`order_profile` is
the designer's view of the deck (§5.2).

May import: :mod:`solo.core` only.
"""

from __future__ import annotations

import enum
import re
from pathlib import Path
from typing import Any, ClassVar

import attrs

from solo.core.bounds import INITIATIVE
from solo.core.catalog import Catalog
from solo.core.datafile import (
    SNAKE_ID,
    DataFile,
    Problems,
    check_unique,
    converter,
    describe,
    read_card_file,
    structure,
)
from solo.core.errors import DataError
from solo.core.hexes import Direction

# ---------------------------------------------------------------------------
# Enemy Order cards (base-rules §5)


class OrderCode(enum.Enum):
    """The order codes printed on Enemy Order cards (base-rules §4, §5.1)."""

    AF = "AF"
    """Aimed Fire."""
    RF = "RF"
    """Rapid Fire."""
    SF = "SF"
    """Suppressive Fire."""
    RG = "RG"
    """Run & Gun (a move order)."""
    SN = "SN"
    """Sneak (a move order)."""
    EV = "EV"
    """Evade (a move order)."""
    SP = "SP"
    """Sprint (a move order)."""
    RA = "RA"
    """Rally."""
    HI = "HI"
    """Hide."""

    @property
    def is_move(self) -> bool:
        """Whether the order moves and so carries a direction string (RG, SN, EV, SP)."""
        return self in _MOVE_CODES


_MOVE_CODES = (OrderCode.RG, OrderCode.SN, OrderCode.EV, OrderCode.SP)
_CODE_LIST = ", ".join(c.value for c in OrderCode)


class CardRow(enum.Enum):
    """The five rows of an Enemy Order card table, best morale first (base-rules §5.1, §7).

    Berserk and Rout have no row: they read the card's berserk and rout strings.
    """

    AGGRESSIVE = "aggressive"
    BOLD = "bold"
    NORMAL = "normal"
    CAUTIOUS = "cautious"
    SHAKEN = "shaken"


def _adjacent(a: Direction, b: Direction) -> bool:
    return (a - b) % 6 in (1, 5)


_DIRECTIONS_RE = re.compile(r"^\d+(/\d+)*$")


@attrs.frozen(repr=False)
class DirectionString:
    """A direction string ``X`` or ``X/Y`` (adjacent directions 1-6), as read through a Direction Counter.

    ``slots`` gives the house A/B slots of base-rules §6: ``X/Y`` → (X, Y), ``X`` → (X, X).
    Constructing one with other directions raises ``ValueError``.
    """

    directions: tuple[Direction, ...]
    """One direction, or two adjacent ones in the printed order."""

    def __attrs_post_init__(self) -> None:
        problem = _direction_problem(self.directions)
        if problem:
            raise ValueError(problem)

    @classmethod
    def parse(cls, text: str | int) -> DirectionString:
        """Read ``"5/6"``, ``"2"`` or the integer ``2``.

        Raises ``ValueError`` naming what is wrong (direction outside 1-6,
        directions not adjacent, more than two directions, not a direction string).
        """
        if isinstance(text, bool) or not isinstance(text, (str, int)):
            raise ValueError(f"expected a direction string like '5/6' or '2', got {describe(text)}")
        raw = str(text).strip()
        if not _DIRECTIONS_RE.match(raw):
            raise ValueError(f"bad direction string {raw!r} (expected 'X' or 'X/Y', e.g. '5/6')")
        return cls(tuple(int(part) for part in raw.split("/")))

    @property
    def slots(self) -> tuple[Direction, Direction]:
        """The A and B direction slots (base-rules §6 house rule: ``X`` gives A = B = X)."""
        first = self.directions[0]
        return (first, self.directions[-1])

    def __str__(self) -> str:
        return "/".join(str(d) for d in self.directions)

    def __repr__(self) -> str:
        return f"DirectionString.parse({str(self)!r})"


def _direction_problem(directions: tuple[Any, ...]) -> str | None:
    shown = "/".join(str(d) for d in directions)
    if not 1 <= len(directions) <= 2:
        return f"direction string {shown!r} must have one or two directions (expected 'X' or 'X/Y')"
    for d in directions:
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            return f"direction {d!r} in {shown!r} outside 1-6"
    if len(directions) == 2 and not _adjacent(directions[0], directions[1]):
        return f"directions {shown!r} must be adjacent (e.g. '5/6', '6/1')"
    return None


@attrs.frozen(repr=False)
class EnemyOrderEntry:
    """One row of an Enemy Order card table: an order, its direction string and its G/C flags.

    The flags are checks made before the order is used (base-rules §5.3 step 8):
    C → TQC → Charge; G → TQC → Grenade. Written and read as ``"RG 5/6 GC"``
    (:meth:`parse`, ``str()``). Constructing an entry whose direction string
    does not match its order (present exactly on RG, SN, EV, SP) raises ``ValueError``.
    """

    code: OrderCode
    directions: DirectionString | None = None
    """The direction string of a move order; None for every other order."""
    grenade_check: bool = False
    """Flag G: a Grenade check comes first."""
    charge_check: bool = False
    """Flag C: a Charge check comes first."""

    def __attrs_post_init__(self) -> None:
        if self.code.is_move and self.directions is None:
            raise ValueError(f"{self.code.value} needs a direction string (e.g. 'RG 5/6')")
        if not self.code.is_move and self.directions is not None:
            raise ValueError(f"{self.code.value} takes no direction string (only RG, SN, EV, SP)")

    @classmethod
    def parse(cls, text: str) -> EnemyOrderEntry:
        """Read a row string ``"CODE [X or X/Y] [G][C]"`` (``"RG 5/6 GC"``, ``"AF G"``, ``"HI"``).

        Raises ``ValueError`` for an unknown code, a missing or unexpected
        direction string, a bad direction string, or an unknown or repeated flag.
        """
        if not isinstance(text, str):
            raise ValueError(f"expected an order entry like 'RG 5/6 GC' or 'HI', got {describe(text)}")
        tokens = text.split()
        if not tokens:
            raise ValueError("empty order entry (expected e.g. 'RG 5/6 GC' or 'HI')")
        try:
            code = OrderCode(tokens[0])
        except ValueError:
            raise ValueError(
                f"unknown order code {tokens[0]!r} in {text!r} (expected one of {_CODE_LIST})"
            ) from None
        rest = tokens[1:]
        directions = None
        if rest and rest[0][:1].isdigit():
            if not code.is_move:
                raise ValueError(
                    f"{code.value} takes no direction string (only RG, SN, EV, SP), got {text!r}"
                )
            directions = DirectionString.parse(rest[0])
            rest = rest[1:]
        elif code.is_move:
            raise ValueError(
                f"{code.value} needs a direction string, got {text!r} (expected e.g. '{code.value} 5/6')"
            )
        flags = "".join(rest)
        for ch in flags:
            if ch not in "GC":
                raise ValueError(f"unknown flag {ch!r} in {text!r} (expected G and/or C)")
        for ch in "GC":
            if flags.count(ch) > 1:
                raise ValueError(f"flag {ch!r} repeated in {text!r}")
        return cls(code, directions, grenade_check="G" in flags, charge_check="C" in flags)

    @property
    def flags(self) -> str:
        """The flags as printed: ``""``, ``"G"``, ``"C"`` or ``"GC"``."""
        return ("G" if self.grenade_check else "") + ("C" if self.charge_check else "")

    def __str__(self) -> str:
        parts = [self.code.value]
        if self.directions is not None:
            parts.append(str(self.directions))
        if self.flags:
            parts.append(self.flags)
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"EnemyOrderEntry.parse({str(self)!r})"


@attrs.frozen
class EnemyOrderTable:
    """The ``cover`` or the ``open`` table of a card: one entry per :class:`CardRow`."""

    aggressive: EnemyOrderEntry
    bold: EnemyOrderEntry
    normal: EnemyOrderEntry
    cautious: EnemyOrderEntry
    shaken: EnemyOrderEntry

    def row(self, row: CardRow) -> EnemyOrderEntry:
        """The entry for the morale ``row`` (base-rules §5.3 step 7)."""
        entry: EnemyOrderEntry = getattr(self, row.value)
        return entry

    def rows(self) -> tuple[tuple[CardRow, EnemyOrderEntry], ...]:
        """All five rows, Aggressive first."""
        return tuple((r, self.row(r)) for r in CardRow)


@attrs.frozen
class EnemyOrderCard:
    """One Enemy Order card (base-rules §5.1)."""

    id: str
    """Stable snake_case id (``"e07"``)."""
    initiative: INITIATIVE
    """The brown circle: an odd number 1-99, each once in the deck; also read by the VOM (C2 31.11.3)."""
    cover: EnemyOrderTable
    """The table used by an enemy in Cover (base-rules §5.4)."""
    open: EnemyOrderTable
    """The table used by an enemy in the Open."""
    rout: DirectionString
    """Where a Routed enemy Evades: directions 2/3 only (base-rules §5.3 step 6; C2 31.11.2)."""
    berserk: DirectionString
    """Where a Berserk enemy Charges: directions 5/6 only."""

    def table(self, *, in_cover: bool) -> EnemyOrderTable:
        """The ``cover`` table if ``in_cover`` else the ``open`` table (base-rules §5.4)."""
        return self.cover if in_cover else self.open

    def entry(self, row: CardRow, *, in_cover: bool) -> EnemyOrderEntry:
        """The entry an Alert enemy reads: table by Cover/Open, row by morale (base-rules §5.3)."""
        return self.table(in_cover=in_cover).row(row)


@attrs.frozen
class EnemyDeckDef(Catalog):
    """The 50 Enemy Order cards, by id (:meth:`card`, ``in``, iteration in file order)."""

    _ITEMS: ClassVar[str] = "cards"
    _WHAT: ClassVar[str] = "Enemy Order card"

    cards: tuple[EnemyOrderCard, ...]
    _by_id: dict[str, EnemyOrderCard] = attrs.field(init=False, eq=False, repr=False)
    edition: str = "house"
    """Which edition the file holds (``"house"`` for the shipped deck)."""
    source: str = "cards/enemy_orders.yaml"
    """The file the deck was loaded from, as problems name it."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.cards})

    def card(self, card_id: str) -> EnemyOrderCard:
        """The card with id ``card_id`` (:meth:`get`). Raises ``KeyError`` if there is none."""
        card: EnemyOrderCard = self.get(card_id)
        return card

    def by_initiative(self, initiative: int) -> EnemyOrderCard:
        """The card with this initiative (1-99, odd). Raises ``KeyError`` if there is none."""
        for c in self.cards:
            if c.initiative == initiative:
                return c
        raise KeyError(initiative)


ENEMY_DECK_SIZE = 50
"""Cards in the Enemy Order deck (base-rules §5.1)."""
ROUT_DIRECTIONS: tuple[Direction, ...] = (2, 3)
"""Directions a rout string may use (base-rules §5.1)."""
BERSERK_DIRECTIONS: tuple[Direction, ...] = (5, 6)
"""Directions a berserk string may use (base-rules §5.1)."""


converter.register_structure_hook(EnemyOrderEntry, lambda v, _t: EnemyOrderEntry.parse(v))
converter.register_structure_hook(DirectionString, lambda v, _t: DirectionString.parse(v))


# ---------------------------------------------------------------------------
# Reading a deck file (both decks)


@attrs.frozen
class _DeckHead:
    edition: str
    cards: tuple[Any, ...]


def read_deck_head(doc: DataFile) -> _DeckHead:
    """The top of a deck file: ``edition`` and the list of ``cards``."""
    head = structure(doc, _DeckHead)
    if not isinstance(doc.data["cards"], list):
        raise DataError([doc.problem(("cards",), "cards must be a list of cards")])
    return head


def structure_cards(doc: DataFile, head: _DeckHead, cls: type, probs: Problems) -> list[tuple[int, Any]]:
    """Structure each card on its own so that every card's problems are reported."""
    out: list[tuple[int, Any]] = []
    for i in range(len(head.cards)):
        try:
            out.append((i, structure(doc, cls, at=("cards", i))))
        except DataError as exc:
            probs.extend(exc.problems)
    return out


def check_card_ids(doc: DataFile, cards: list[tuple[int, Any]], probs: Problems) -> None:
    """Card ids snake_case and each used once (``cards`` as :func:`structure_cards` gives them)."""
    for i, card in cards:
        if not SNAKE_ID.match(card.id):
            probs.add(doc, ("cards", i, "id"), f"card id {card.id!r} must be snake_case (e.g. 'e07')")
    check_unique(
        probs,
        doc,
        [(("cards", i, "id"), card.id) for i, card in cards],
        "duplicate card id {id!r} (first on line {line})",
    )


def count_message(what: str, found: int, expected: int) -> str:
    """``"48 cards (expected 50, 2 too few)"``: a count that is not the one expected."""
    diff = found - expected
    how = f"{diff} too many" if diff > 0 else f"{-diff} too few"
    return f"{found} {what} (expected {expected}, {how})"


def load_enemy_deck(path: Path | None = None) -> EnemyDeckDef:
    """Load and check the Enemy Order deck (``cards/enemy_orders.yaml`` when ``path`` is None).

    Checks (base-rules §5.1): 50 cards; snake_case unique ids; initiatives odd,
    0-99 and each used once; row strings well formed (:meth:`EnemyOrderEntry.parse`);
    rout strings on directions 2/3 only and berserk strings on 5/6 only.
    Raises :class:`~solo.core.errors.DataError` listing every problem with its line.
    """
    doc = read_card_file(path, "enemy_orders.yaml")
    head = read_deck_head(doc)
    probs = Problems()
    if len(head.cards) != ENEMY_DECK_SIZE:
        probs.add(
            doc,
            ("cards",),
            "the Enemy deck has " + count_message("cards", len(head.cards), ENEMY_DECK_SIZE),
            at_key=True,
        )
    cards = structure_cards(doc, head, EnemyOrderCard, probs)
    check_card_ids(doc, cards, probs)
    first_init: dict[int, int] = {}
    for i, card in cards:
        where = ("cards", i, "initiative")
        if not 0 <= card.initiative <= 99:
            probs.add(doc, where, f"initiative {card.initiative} outside 0-99")
        elif card.initiative % 2 == 0:
            probs.add(doc, where, f"initiative {card.initiative} is even (Enemy initiatives are odd)")
        elif card.initiative in first_init:
            line = doc.line_of(("cards", first_init[card.initiative], "initiative"))
            probs.add(doc, where, f"initiative {card.initiative} repeated (first on line {line})")
        else:
            first_init[card.initiative] = i
        for key, allowed in (("rout", ROUT_DIRECTIONS), ("berserk", BERSERK_DIRECTIONS)):
            ds: DirectionString = getattr(card, key)
            if any(d not in allowed for d in ds.directions):
                names = " and ".join(str(d) for d in allowed)
                probs.add(doc, ("cards", i, key), f"{key} {str(ds)!r} may use directions {names} only")
    probs.raise_if_any()
    return EnemyDeckDef(tuple(c for _, c in cards), edition=head.edition, source=doc.name)


# ---------------------------------------------------------------------------
# Designer views


def order_profile(deck: EnemyDeckDef) -> dict[str, dict[str, dict[str, int]]]:
    """Counts of orders and flags per column of the deck (the base-rules §5.2 table).

    Keys are ``"cover/aggressive"`` … ``"open/shaken"`` (Cover first, rows best
    first); each value is ``{"orders": {"RF": 16, ...}, "flags": {"G": 17, "C": 21}}``
    with orders by count (most first, ties in :class:`OrderCode` order) and
    zero counts left out.
    """
    profile: dict[str, dict[str, dict[str, int]]] = {}
    for table_name in ("cover", "open"):
        for row in CardRow:
            entries = [getattr(card, table_name).row(row) for card in deck.cards]
            counts = {code: sum(1 for e in entries if e.code is code) for code in OrderCode}
            ranked = sorted(
                (code for code in OrderCode if counts[code]),
                key=lambda code: -counts[code],
            )
            flags = {
                "G": sum(1 for e in entries if e.grenade_check),
                "C": sum(1 for e in entries if e.charge_check),
            }
            profile[f"{table_name}/{row.value}"] = {
                "orders": {code.value: counts[code] for code in ranked},
                "flags": {k: v for k, v in flags.items() if v},
            }
    return profile


__all__ = [
    "BERSERK_DIRECTIONS",
    "ENEMY_DECK_SIZE",
    "ROUT_DIRECTIONS",
    "CardRow",
    "DirectionString",
    "EnemyDeckDef",
    "EnemyOrderCard",
    "EnemyOrderEntry",
    "EnemyOrderTable",
    "OrderCode",
    "check_card_ids",
    "count_message",
    "load_enemy_deck",
    "order_profile",
    "read_deck_head",
    "structure_cards",
]
