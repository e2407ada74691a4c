"""Exact odds of an Enemy Order deck, for designers: its profile, and two decks side by side.

Every number here is counted over the cards, never sampled: a probability is a
:class:`~fractions.Fraction` ``count / cards``, each card being equally likely to be the
next one drawn from a shuffled pile (base-rules §5.5).

* :func:`deck_profile`: per morale row × Cover/Open (base-rules §5.2-5.4) the orders, the
  G/C flags (G only, C only, G and C), the direction strings of each move order; the rout and
  berserk strings (§5.1) and the spread of the initiatives;
* :func:`load_deck`: the deck of a file or of a card set directory;
* :func:`compare_decks` and :func:`write_comparison_png`: two decks side by side (table, chart).

The VOM read with a deck is :mod:`solo.playtest.odds_vom`; the next card during a game
:mod:`solo.playtest.odds_next`. Nothing here prints; :mod:`solo.cli.deck` formats these for
the terminal.

May import: :mod:`solo.data` and :mod:`solo.core`; matplotlib (inside :func:`write_comparison_png`).
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from solo.core.errors import DataError, Problem
from solo.data.cards import CardRow, EnemyDeckDef, EnemyOrderCard, OrderCode, load_enemy_deck

__all__ = [
    "COLUMNS",
    "DECK_FILE",
    "FLAGS",
    "FLAG_LABELS",
    "ColumnOdds",
    "CompareRow",
    "DeckComparison",
    "DeckLike",
    "DeckOdds",
    "InitiativeSpread",
    "column_label",
    "column_name",
    "compare_decks",
    "deck_profile",
    "load_deck",
    "percent",
    "write_comparison_png",
]


DECK_FILE = "enemy_orders.yaml"
"""The Enemy deck's file name in a card set directory."""

COLUMNS: tuple[tuple[CardRow, bool], ...] = tuple(
    (row, in_cover) for in_cover in (True, False) for row in CardRow
)
"""The ten (morale row, in Cover) columns of a card, Cover first, rows best first (base-rules §5.2)."""

FLAGS: tuple[str, ...] = ("", "G", "C", "GC")
"""The four flag sets of a row, as :attr:`solo.data.cards.EnemyOrderEntry.flags` writes them."""

FLAG_LABELS: dict[str, str] = {"": "no flag", "G": "G only", "C": "C only", "GC": "G and C"}
"""How each flag set reads in tables."""


_MOVE_CODES: tuple[OrderCode, ...] = tuple(c for c in OrderCode if c.is_move)


def column_name(row: CardRow, *, in_cover: bool) -> str:
    """The stable key of a card column: ``"cover/aggressive"`` … ``"open/shaken"``."""
    return f"{'cover' if in_cover else 'open'}/{row.value}"


def column_label(row: CardRow, *, in_cover: bool) -> str:
    """The readable name of a card column: ``"Cover/Aggressive"`` (base-rules §5.2)."""
    return f"{'Cover' if in_cover else 'Open'}/{row.value.capitalize()}"


def percent(count: int, total: int) -> Fraction:
    """``count`` of ``total`` as an exact percentage (a Fraction; 0 when ``total`` is 0)."""
    return Fraction(100 * count, total) if total else Fraction(0)


def _ranked(counter: Counter[str]) -> tuple[tuple[str, int], ...]:
    """Counter items most first, ties by text (deterministic)."""
    return tuple(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


# ---------------------------------------------------------------------------
# The deck profile (base-rules §5.1-5.2)


@attrs.frozen
class ColumnOdds:
    """What one column (morale row × Cover/Open) of a set of cards gives (base-rules §5.2-5.3).

    Counts are of cards; each card is equally likely, so a probability is ``count / total``.
    """

    row: CardRow
    in_cover: bool
    total: int
    """Cards counted (50 for a full deck; the draw pile for next-card odds)."""
    orders: tuple[tuple[OrderCode, int], ...]
    """Every order code in :class:`OrderCode` order, zero counts kept."""
    flags: tuple[tuple[str, int], ...]
    """Cards per flag set ``""``, ``"G"`` (G only), ``"C"`` (C only), ``"GC"`` (G and C)."""
    directions: tuple[tuple[OrderCode, tuple[tuple[str, int], ...]], ...]
    """Per move order present (RG, SN, EV, SP): its direction strings, most first."""

    @property
    def name(self) -> str:
        """``"cover/aggressive"``."""
        return column_name(self.row, in_cover=self.in_cover)

    @property
    def label(self) -> str:
        """``"Cover/Aggressive"``."""
        return column_label(self.row, in_cover=self.in_cover)

    def count(self, code: OrderCode | str) -> int:
        """Cards giving order ``code`` in this column."""
        code = OrderCode(code)
        return next(n for c, n in self.orders if c is code)

    def probability(self, code: OrderCode | str) -> Fraction:
        """The exact chance that a card drawn at random gives ``code`` here."""
        return Fraction(self.count(code), self.total) if self.total else Fraction(0)

    def flag_count(self, flags: str) -> int:
        """Cards with exactly the flag set ``flags`` (``""``, ``"G"``, ``"C"``, ``"GC"``)."""
        return dict(self.flags)[flags]

    @property
    def grenade_checks(self) -> int:
        """Cards with flag G (with or without C), as the base-rules §5.2 table counts them."""
        return self.flag_count("G") + self.flag_count("GC")

    @property
    def charge_checks(self) -> int:
        """Cards with flag C (with or without G), as the base-rules §5.2 table counts them."""
        return self.flag_count("C") + self.flag_count("GC")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict: counts, exact probabilities (``"8/25"``) and percentages."""
        return {
            "column": self.name,
            "total": self.total,
            "orders": {c.value: _share(n, self.total) for c, n in self.orders},
            "flags": {FLAG_LABELS[f]: _share(n, self.total) for f, n in self.flags},
            "grenade_checks": self.grenade_checks,
            "charge_checks": self.charge_checks,
            "directions": {c.value: dict(strings) for c, strings in self.directions},
        }


def _share(count: int, total: int) -> dict[str, Any]:
    p = Fraction(count, total) if total else Fraction(0)
    return {"count": count, "probability": str(p), "percent": round(float(100 * p), 4)}


def _column_odds(cards: Sequence[EnemyOrderCard], row: CardRow, in_cover: bool) -> ColumnOdds:
    entries = [card.entry(row, in_cover=in_cover) for card in cards]
    orders = Counter(e.code for e in entries)
    flags = Counter(e.flags for e in entries)
    directions = []
    for code in _MOVE_CODES:
        strings = Counter(str(e.directions) for e in entries if e.code is code)
        if strings:
            directions.append((code, _ranked(strings)))
    return ColumnOdds(
        row=row,
        in_cover=in_cover,
        total=len(entries),
        orders=tuple((code, orders[code]) for code in OrderCode),
        flags=tuple((f, flags[f]) for f in FLAGS),
        directions=tuple(directions),
    )


@attrs.frozen
class InitiativeSpread:
    """The spread of the cards' initiatives (the brown circles, 0-99; base-rules §5.1)."""

    count: int
    minimum: int
    maximum: int
    quartiles: tuple[Fraction, Fraction, Fraction]
    """Q1, median, Q3 by linear interpolation between order statistics (the "inclusive" method)."""
    histogram: tuple[tuple[int, int], ...]
    """(first number of the ten, cards): 0-9, 10-19, … 90-99."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (quartiles as exact strings and floats)."""
        return {
            "count": self.count,
            "min": self.minimum,
            "max": self.maximum,
            "quartiles": [str(q) for q in self.quartiles],
            "quartiles_float": [float(q) for q in self.quartiles],
            "histogram": {f"{lo:02d}-{lo + 9:02d}": n for lo, n in self.histogram},
        }


def _quantile(values: Sequence[int], p: Fraction) -> Fraction:
    """The ``p`` quantile of sorted ``values`` by linear interpolation (inclusive method)."""
    pos = (len(values) - 1) * p
    i = int(pos)
    frac = pos - i
    if frac == 0:
        return Fraction(values[i])
    return values[i] + frac * (values[i + 1] - values[i])


def _spread(initiatives: Iterable[int]) -> InitiativeSpread:
    values = sorted(initiatives)
    if not values:
        raise ValueError("no cards: no initiative spread")
    tens = Counter(v // 10 for v in values)
    return InitiativeSpread(
        count=len(values),
        minimum=values[0],
        maximum=values[-1],
        quartiles=(
            _quantile(values, Fraction(1, 4)),
            _quantile(values, Fraction(2, 4)),
            _quantile(values, Fraction(3, 4)),
        ),
        histogram=tuple((10 * t, tens[t]) for t in range(10)),
    )


@attrs.frozen
class DeckOdds:
    """The exact profile of an Enemy Order deck (base-rules §5.1-5.2), from :func:`deck_profile`."""

    source: str
    """The deck's file, as problems name it."""
    edition: str
    size: int
    """Cards in the deck."""
    columns: tuple[ColumnOdds, ...]
    """The ten columns in :data:`COLUMNS` order."""
    rout: tuple[tuple[str, int], ...]
    """Rout strings (directions 2/3), most first."""
    berserk: tuple[tuple[str, int], ...]
    """Berserk strings (directions 5/6), most first."""
    rout_berserk: tuple[tuple[tuple[str, str], int], ...]
    """(rout, berserk) pairs on the same card, most first (the pairs of base-rules §5.1)."""
    initiative: InitiativeSpread

    def column(self, row: CardRow | str, *, in_cover: bool) -> ColumnOdds:
        """The column for morale ``row`` in Cover (``in_cover``) or the Open."""
        row = CardRow(row)
        return next(c for c in self.columns if c.row is row and c.in_cover is in_cover)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict of the whole profile."""
        return {
            "source": self.source,
            "edition": self.edition,
            "size": self.size,
            "columns": {c.name: c.to_dict() for c in self.columns},
            "rout": dict(self.rout),
            "berserk": dict(self.berserk),
            "rout_berserk": [{"rout": r, "berserk": b, "count": n} for (r, b), n in self.rout_berserk],
            "initiative": self.initiative.to_dict(),
        }


DeckLike = EnemyDeckDef | Path | str | None
"""A deck, or where to load it (:func:`load_deck`: a file, a card set directory, None = shipped)."""


def _as_deck(deck: DeckLike) -> EnemyDeckDef:
    return deck if isinstance(deck, EnemyDeckDef) else load_deck(deck)


def deck_profile(deck: DeckLike = None) -> DeckOdds:
    """The exact profile of ``deck``: orders, flags and direction strings per column (base-rules §5.2).

    ``deck``: an :class:`~solo.data.cards.EnemyDeckDef`, a deck file, a card set directory, or
    None for the shipped deck (:func:`load_deck`). Counts every card once per column (morale
    row × Cover/Open, base-rules §5.3 step 7, §5.4), the rout and berserk strings (§5.3 step
    6) and the initiatives (§5.1). Raises :class:`~solo.core.errors.DataError` for a deck that
    cannot be loaded, ``ValueError`` for a deck with no card.
    """
    deck = _as_deck(deck)
    cards = deck.cards
    if not cards:
        raise ValueError(f"{deck.source}: the deck has no card")
    return DeckOdds(
        source=deck.source,
        edition=deck.edition,
        size=len(cards),
        columns=tuple(_column_odds(cards, row, in_cover) for row, in_cover in COLUMNS),
        rout=_ranked(Counter(str(c.rout) for c in cards)),
        berserk=_ranked(Counter(str(c.berserk) for c in cards)),
        rout_berserk=tuple(
            sorted(
                Counter((str(c.rout), str(c.berserk)) for c in cards).items(),
                key=lambda kv: (-kv[1], kv[0]),
            )
        ),
        initiative=_spread(c.initiative for c in cards),
    )


def load_deck(path: Path | str | None = None) -> EnemyDeckDef:
    """The Enemy deck of a file or of a card set directory (its ``enemy_orders.yaml``).

    ``None`` or ``"house"`` (as ``solo batch --variant A=house`` names it): the shipped deck.
    Raises :class:`~solo.core.errors.DataError` for a missing file, a directory without
    ``enemy_orders.yaml`` or a broken deck (every problem with its line).
    """
    p = Path(path) if path is not None else None
    if p is None or (str(path) == "house" and not p.exists()):
        return load_enemy_deck()
    if not p.exists():
        raise DataError(
            [
                Problem(
                    str(p),
                    None,
                    f"no such file or directory (expected an {DECK_FILE} file or a card set directory)",
                )
            ]
        )
    if p.is_dir():
        f = p / DECK_FILE
        if not f.is_file():
            raise DataError(
                [Problem(str(p), None, f"no {DECK_FILE} in this directory (a card set holds the Enemy deck)")]
            )
        p = f
    return load_enemy_deck(p)


# ---------------------------------------------------------------------------
# Two decks side by side


@attrs.frozen
class CompareRow:
    """One line of a comparison: a column and an order (or a flag set), in deck A and deck B."""

    column: str
    """``"cover/aggressive"``."""
    key: str
    """An order code (``"RF"``) or a flag label (``"G only"``, ``"C only"``, ``"G and C"``)."""
    a: int
    total_a: int
    b: int
    total_b: int

    @property
    def difference(self) -> int:
        """Cards in B minus cards in A."""
        return self.b - self.a

    @property
    def percent_difference(self) -> Fraction:
        """Percentage points, B minus A (exact)."""
        return percent(self.b, self.total_b) - percent(self.a, self.total_a)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {
            "column": self.column,
            "key": self.key,
            "a": _share(self.a, self.total_a),
            "b": _share(self.b, self.total_b),
            "difference": self.difference,
            "percent_difference": round(float(self.percent_difference), 4),
        }


@attrs.frozen
class DeckComparison:
    """Deck A and deck B per column, order by order and flag by flag (from :func:`compare_decks`)."""

    a: DeckOdds
    b: DeckOdds
    rows: tuple[CompareRow, ...]
    """Columns in :data:`COLUMNS` order; per column the orders then G only, C only, G and C."""

    def differences(self) -> tuple[CompareRow, ...]:
        """The rows where the decks differ (count or share)."""
        return tuple(r for r in self.rows if r.difference or r.percent_difference)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {
            "a": {"source": self.a.source, "size": self.a.size},
            "b": {"source": self.b.source, "size": self.b.size},
            "rows": [r.to_dict() for r in self.rows],
        }


_COMPARED_FLAGS = ("G", "C", "GC")


def compare_decks(a: DeckLike | DeckOdds, b: DeckLike | DeckOdds) -> DeckComparison:
    """Decks ``a`` and ``b`` side by side: per column each order and flag set, and B − A (base-rules §5.2).

    Takes decks, where to load them (as :func:`deck_profile`), or their profiles.
    """
    pa = a if isinstance(a, DeckOdds) else deck_profile(a)
    pb = b if isinstance(b, DeckOdds) else deck_profile(b)
    rows = []
    for ca, cb in zip(pa.columns, pb.columns, strict=True):
        for code in OrderCode:
            rows.append(CompareRow(ca.name, code.value, ca.count(code), pa.size, cb.count(code), pb.size))
        for f in _COMPARED_FLAGS:
            rows.append(
                CompareRow(ca.name, FLAG_LABELS[f], ca.flag_count(f), pa.size, cb.flag_count(f), pb.size)
            )
    return DeckComparison(pa, pb, tuple(rows))


def write_comparison_png(
    comparison: DeckComparison,
    path: Path | str,
    *,
    labels: tuple[str, str] | None = None,
) -> Path:
    """Draw the orders of both decks per column (grouped bars, % of each deck) and write a PNG atomically.

    Ten panels, Cover on the top row and the Open below, morale rows best first (base-rules
    §5.2); an order whose count differs is marked with B − A in cards. Uses Matplotlib's Agg
    canvas (no display, no pyplot state). The file is written to a temporary file beside
    ``path`` and renamed, so a failure leaves no partial file. Returns the path written;
    raises ``OSError`` if it cannot be written.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    path = Path(path)
    names = labels or (f"A: {comparison.a.source}", f"B: {comparison.b.source}")
    codes = [c.value for c in OrderCode]
    fig = Figure(figsize=(17, 7.2), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, len(CardRow), sharey=True)
    top = max(
        float(percent(n, p.size))
        for p in (comparison.a, comparison.b)
        for c in p.columns
        for _, n in c.orders
    )
    width = 0.4
    xs = list(range(len(codes)))
    for ca, cb in zip(comparison.a.columns, comparison.b.columns, strict=True):
        ax = axes[0 if ca.in_cover else 1][list(CardRow).index(ca.row)]
        ya = [float(percent(n, comparison.a.size)) for _, n in ca.orders]
        yb = [float(percent(n, comparison.b.size)) for _, n in cb.orders]
        ax.bar([x - width / 2 for x in xs], ya, width, label=names[0], color="#4c72b0")
        ax.bar([x + width / 2 for x in xs], yb, width, label=names[1], color="#dd8452")
        for x, (_code, na), (_c, nb), top_ab in zip(xs, ca.orders, cb.orders, map(max, ya, yb), strict=True):
            if na != nb:  # mark the orders that differ with B - A in cards
                ax.annotate(
                    f"{nb - na:+d}", (x, top_ab), ha="center", va="bottom", fontsize=8, color="#c0392b"
                )
        ax.set_title(ca.label, fontsize=11)
        ax.set_xticks(xs, codes, fontsize=8)
        ax.set_ylim(0, top * 1.1 + 1)
        ax.grid(axis="y", alpha=0.3)
        if ca.row is CardRow.AGGRESSIVE:
            ax.set_ylabel("% of the deck")
    handles, texts = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, texts, loc="outside lower center", ncols=2)
    fig.suptitle("Enemy Order deck: orders per morale row, Cover and Open", fontsize=13)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".png", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, format="png")
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it 0600; a chart is for sharing
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
