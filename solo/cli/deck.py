"""``solo deck``: exact odds of an Enemy Order deck and of the VOM, and two decks side by side.

Subcommands (each prints a fixed-width table, or ``--format json``/``csv``):

* ``solo deck odds [DECK_OR_DIR]``: orders, G/C flags and direction strings per morale row ×
  Cover/Open, rout and berserk strings, initiative spread (base-rules §5.1-5.2);
* ``solo deck vom [--deck DECK_OR_DIR] [--vom FILE_OR_DIR] [--role ROLE] [--column COLUMN]
  [--morale STATE] [--cells]``: the VOM's orders per role × column × Morale State (C2 31.11.3);
* ``solo deck compare A B [--png FILE] [--all]``: per column, orders and flags of A and B and
  B − A; with ``--png`` a chart of both decks.

Bad input (a missing file, a directory without ``enemy_orders.yaml``, a broken deck) raises
:class:`~solo.core.errors.DataError`, which the main CLI prints as ``path:line: message`` and exits 2;
nothing is written then. The table formatters are public for reuse.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solo.core.errors import DataError, SoloError
from solo.data.cards import CardRow, EnemyDeckDef, OrderCode
from solo.data.vehicle_types import CREW_ACTIVATION_ORDER
from solo.data.vom import VOM_MORALES, VomColumn

if TYPE_CHECKING:
    from fractions import Fraction

    from solo.playtest.odds_deck import DeckComparison, DeckOdds
    from solo.playtest.odds_vom import VomOdds

# The odds modules (and fractions, json, csv) are imported inside the commands and formatters:
# every `solo` command builds this parser, and a game's start needs none of them (issue 10).

__all__ = [
    "add_parsers",
    "format_comparison",
    "format_profile",
    "format_vom",
]

FORMATS = ("table", "json", "csv")

# ---------------------------------------------------------------------------
# Text helpers


def _pct(count: int, total: int) -> str:
    """``"32%"``, or ``"33.3%"`` when the share is not a whole percent."""
    from solo.playtest.odds_deck import percent

    p = percent(count, total)
    return f"{p.numerator}%" if p.denominator == 1 else f"{float(p):.1f}%"


def _signed_pct(p: Fraction) -> str:
    text = f"{p.numerator}" if p.denominator == 1 else f"{float(p):.1f}"
    return ("+" if p > 0 else "") + text + "%"


def _share_cell(count: int, total: int) -> str:
    return "-" if count == 0 else f"{count:>2} {_pct(count, total):>3}"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, left: int = 1) -> list[str]:
    """Fixed-width lines: the first ``left`` columns left-aligned, the others right-aligned."""
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        out = [
            str(c).ljust(w) if i < left else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(out).rstrip()

    return [line(headers), *(line(r) for r in rows)]


def _counts(items: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{k} ×{n}" for k, n in items) or "-"


# ---------------------------------------------------------------------------
# deck odds


def format_profile(odds: DeckOdds) -> str:
    """The deck profile as fixed-width tables for a terminal (base-rules §5.1-5.2)."""
    from solo.playtest.odds_deck import FLAG_LABELS, FLAGS

    n = odds.size
    out = [
        f"Enemy deck {odds.source} ({odds.edition} edition, {n} cards): exact counts and % of the deck",
        "",
    ]
    out.append("Orders per column (cards, % of the deck)")
    codes = list(OrderCode)
    out += _table(
        ["Column", *(c.value for c in codes)],
        [[c.label, *(_share_cell(c.count(code), n) for code in codes)] for c in odds.columns],
    )
    out += ["", "Flags (G: Grenade check, C: Charge check, base-rules §5.3 step 8)"]
    out += _table(
        ["Column", *(FLAG_LABELS[f] for f in FLAGS), "all G", "all C"],
        [
            [
                c.label,
                *(_share_cell(c.flag_count(f), n) for f in FLAGS),
                str(c.grenade_checks),
                str(c.charge_checks),
            ]
            for c in odds.columns
        ],
    )
    out += ["", "Direction strings of the move orders (string ×cards)"]
    rows = []
    for c in odds.columns:
        for i, (code, strings) in enumerate(c.directions):
            rows.append([c.label if i == 0 else "", code.value, _counts(strings)])
    out += _table(["Column", "Order", "Strings"], rows, left=3)
    out += [""]
    out += _table(
        ["Card strings", ""],
        [
            ["Rout (Evade)", _counts(odds.rout)],
            ["Berserk (Charge)", _counts(odds.berserk)],
            ["Rout + berserk", _counts([(f"{r}+{b}", k) for (r, b), k in odds.rout_berserk])],
        ],
        left=2,
    )
    s = odds.initiative
    q = " / ".join(_number(x) for x in s.quartiles)
    out += ["", f"Initiatives: {s.count} cards, min {s.minimum}, max {s.maximum}, quartiles {q}"]
    for lo, k in s.histogram:
        out.append(f"  {lo:02d}-{lo + 9:02d}  {k:>3}  {'#' * k}")
    return "\n".join(out)


def _number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue().rstrip("\n")


def _share_fields(count: int, total: int) -> list[Any]:
    from fractions import Fraction

    p = Fraction(count, total) if total else Fraction(0)
    return [count, total, str(p), round(float(100 * p), 4)]


def profile_csv(odds: DeckOdds) -> str:
    """The deck profile as CSV: ``section,column,key,count,total,probability,percent,value``."""
    from fractions import Fraction

    from solo.playtest.odds_deck import FLAG_LABELS

    n = odds.size
    rows: list[list[Any]] = []
    for c in odds.columns:
        for code, k in c.orders:
            rows.append(["order", c.name, code.value, *_share_fields(k, n), ""])
        for f, k in c.flags:
            rows.append(["flag", c.name, FLAG_LABELS[f], *_share_fields(k, n), ""])
        for code, strings in c.directions:
            for text, k in strings:
                rows.append(["direction", c.name, f"{code.value} {text}", *_share_fields(k, n), ""])
    for section, items in (("rout", odds.rout), ("berserk", odds.berserk)):
        for text, k in items:
            rows.append([section, "", text, *_share_fields(k, n), ""])
    for (r, b), k in odds.rout_berserk:
        rows.append(["rout_berserk", "", f"{r}+{b}", *_share_fields(k, n), ""])
    s = odds.initiative
    stats = (("min", s.minimum), ("max", s.maximum), *zip(("q1", "median", "q3"), s.quartiles, strict=True))
    for key, value in stats:
        rows.append(["initiative", "", key, "", "", "", "", _number(Fraction(value))])
    for lo, k in s.histogram:
        rows.append(["initiative_histogram", "", f"{lo:02d}-{lo + 9:02d}", *_share_fields(k, n), ""])
    return _csv(["section", "column", "key", "count", "total", "probability", "percent", "value"], rows)


def _cmd_odds(args: argparse.Namespace) -> int:
    import json

    from solo.playtest.odds_deck import deck_profile, load_deck

    odds = deck_profile(load_deck(args.deck))
    if args.format == "json":
        print(json.dumps(odds.to_dict(), indent=2))
    elif args.format == "csv":
        print(profile_csv(odds))
    else:
        print(format_profile(odds))
    return 0


# ---------------------------------------------------------------------------
# deck vom


def format_vom(odds: VomOdds, *, cells: bool = False) -> str:
    """VOM odds as one fixed-width table per role × column (Morale States down, orders across).

    ``cells``: one column per VOM cell (order with its direction string or weapon) instead of
    per order (C2 31.11.3).
    """
    from solo.playtest.odds_vom import vom_column_label

    out = [
        f"VOM odds with the Enemy deck {odds.deck_source} ({odds.size} cards, each equally likely): "
        "% of the deck per order",
        "Row read = card initiative + morale modifier, clamped to 00-99 (C2 31.11.3 [house] modifiers).",
    ]
    groups: list[tuple[Any, Any, list[Any]]] = []
    for e in odds.entries:
        if not groups or (groups[-1][0], groups[-1][1]) != (e.role, e.column):
            groups.append((e.role, e.column, []))
        groups[-1][2].append(e)
    for role, column, entries in groups:
        keys: list[str] = []
        for e in entries:
            for k, _n in e.cells if cells else e.orders:
                if k not in keys:
                    keys.append(k)
        name = role.value.replace("_", "-").capitalize()
        out += ["", f"{name}, {column.value} ({vom_column_label(column)})"]
        rows = []
        for e in entries:
            got = dict(e.cells if cells else e.orders)
            rows.append(
                [
                    e.morale.value,
                    f"{e.modifier:+d}",
                    *(_pct(got[k], e.total) if got.get(k) else "-" for k in keys),
                ]
            )
        out += _table(["Morale", "Mod", *keys], rows)
    return "\n".join(out)


def vom_csv(odds: VomOdds) -> str:
    """VOM odds as CSV: ``role,column,morale,modifier,kind,key,count,total,probability,percent``.

    ``kind`` is ``order`` (order id) or ``cell`` (order with its direction string or weapon).
    """
    rows: list[list[Any]] = []
    for e in odds.entries:
        head = [e.role.value, e.column.value, e.morale.value, e.modifier]
        for kind, items in (("order", e.orders), ("cell", e.cells)):
            for key, k in items:
                rows.append([*head, kind, key, *_share_fields(k, e.total)])
    header = [
        "role",
        "column",
        "morale",
        "modifier",
        "kind",
        "key",
        "count",
        "total",
        "probability",
        "percent",
    ]
    return _csv(header, rows)


def _cmd_vom(args: argparse.Namespace) -> int:
    import json

    from solo.playtest.odds_deck import load_deck
    from solo.playtest.odds_vom import load_vom_for, vom_odds

    deck = load_deck(args.deck)
    vom = load_vom_for(args.vom, args.deck)
    odds = vom_odds(
        vom,
        deck,
        roles=args.role or None,
        columns=args.column or None,
        morales=args.morale or VOM_MORALES,
    )
    if not odds.entries:
        raise SoloError("no VOM column matches --role/--column")
    if args.format == "json":
        print(json.dumps(odds.to_dict(), indent=2))
    elif args.format == "csv":
        print(vom_csv(odds))
    else:
        print(format_vom(odds, cells=args.cells))
    return 0


# ---------------------------------------------------------------------------
# deck compare


def format_comparison(cmp: DeckComparison, *, all_rows: bool = False, only_differences: bool = False) -> str:
    """Two decks side by side per column: cards and % in A and in B, and B − A (base-rules §5.2).

    Rows where neither deck has the order or flag are left out unless ``all_rows``;
    with ``only_differences`` only the rows where the decks differ are shown.
    """
    from solo.playtest.odds_deck import column_label

    a, b = cmp.a, cmp.b
    out = [
        f"A: {a.source} ({a.size} cards)",
        f"B: {b.source} ({b.size} cards)",
        "Difference: B - A, in cards and in percentage points of the deck.",
        "",
    ]
    rows = []
    last = None
    for r in cmp.rows:
        if not all_rows and r.a == 0 and r.b == 0:
            continue
        if only_differences and not (r.difference or r.percent_difference):
            continue
        row, table = r.column.split("/")[1], r.column.split("/")[0]
        label = column_label(CardRow(row), in_cover=table == "cover")
        diff = "=" if not (r.difference or r.percent_difference) else f"{r.difference:+d}"
        rows.append(
            [
                label if label != last else "",
                r.key,
                _share_cell(r.a, r.total_a),
                _share_cell(r.b, r.total_b),
                diff,
                "" if diff == "=" else _signed_pct(r.percent_difference),
            ]
        )
        last = label
    out += _table(["Column", "Order/flag", "A", "B", "B-A", "points"], rows, left=2)
    n = len(cmp.differences())
    out += [
        "",
        f"{n} difference(s) in {len(cmp.rows)} order/flag counts."
        if n
        else "No difference: both decks give the same orders and flags in every column.",
    ]
    return "\n".join(out)


def comparison_csv(cmp: DeckComparison) -> str:
    """The comparison as CSV, one row per column × order or flag set."""
    from solo.playtest.odds_deck import percent

    rows = [
        [
            r.column,
            r.key,
            r.a,
            r.total_a,
            round(float(percent(r.a, r.total_a)), 4),
            r.b,
            r.total_b,
            round(float(percent(r.b, r.total_b)), 4),
            r.difference,
            round(float(r.percent_difference), 4),
        ]
        for r in cmp.rows
    ]
    header = [
        "column",
        "key",
        "a_count",
        "a_total",
        "a_percent",
        "b_count",
        "b_total",
        "b_percent",
        "difference",
        "percent_difference",
    ]
    return _csv(header, rows)


def _load_both(a: str, b: str) -> tuple[EnemyDeckDef, EnemyDeckDef]:
    """Both decks, or one DataError naming the problems of both."""
    from solo.playtest.odds_deck import load_deck

    decks, problems = [], []
    for path in (a, b):
        try:
            decks.append(load_deck(path))
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    return decks[0], decks[1]


def write_comparison_png(
    cmp: DeckComparison, path: Path | str, *, labels: tuple[str, str] | None = None
) -> Path:
    """:func:`solo.playtest.odds_deck.write_comparison_png`, imported when a chart is drawn."""
    from solo.playtest.odds_deck import write_comparison_png as write

    return write(cmp, path, labels=labels)


def _cmd_compare(args: argparse.Namespace) -> int:
    import json

    from solo.playtest.odds_deck import compare_decks

    if args.png and Path(args.png).is_dir():
        raise SoloError(f"--png {args.png} is a directory; give a file name like compare.png")
    deck_a, deck_b = _load_both(args.a, args.b)
    cmp = compare_decks(deck_a, deck_b)
    if args.format == "json":
        print(json.dumps(cmp.to_dict(), indent=2))
    elif args.format == "csv":
        print(comparison_csv(cmp))
    else:
        print(format_comparison(cmp, all_rows=args.all, only_differences=args.differences))
    if args.png:
        try:
            written = write_comparison_png(cmp, args.png, labels=(f"A: {args.a}", f"B: {args.b}"))
        except OSError as exc:
            raise SoloError(f"cannot write {args.png}: {exc}") from None
        print(f"Chart written to {written}.", file=sys.stderr if args.format != "table" else sys.stdout)
    return 0


# ---------------------------------------------------------------------------
# Parsers


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``solo deck odds|vom|compare`` to the ``solo`` command's subparsers."""
    deck = sub.add_parser(
        "deck",
        help="exact odds of an Enemy deck and the VOM; compare two decks",
        description="Exact odds (counted over the cards, not sampled) of an Enemy Order deck and "
        "of the Vehicle Order Matrix, for designers.",
    )

    def _help(_args: argparse.Namespace) -> int:
        deck.print_help()
        return 0

    deck.set_defaults(func=_help)
    dsub = deck.add_subparsers(dest="deck_command", metavar="SUBCOMMAND")

    p = dsub.add_parser(
        "odds",
        help="orders, G/C flags, direction strings per morale row × Cover/Open; initiative spread",
    )
    p.add_argument(
        "deck",
        nargs="?",
        metavar="DECK_OR_DIR",
        help="an enemy_orders.yaml file or a card set directory (default: the shipped deck)",
    )
    p.add_argument("--format", choices=FORMATS, default="table", help="output format (default table)")
    p.set_defaults(func=_cmd_odds)

    p = dsub.add_parser("vom", help="VOM order odds per crew role × column × morale with a deck")
    p.add_argument(
        "--deck", metavar="DECK_OR_DIR", help="Enemy deck file or card set directory (default: shipped)"
    )
    p.add_argument(
        "--vom",
        metavar="FILE_OR_DIR",
        help="VOM file or card set directory (default: the --deck directory's, else shipped)",
    )
    p.add_argument(
        "--role",
        action="append",
        choices=[r.value for r in CREW_ACTIVATION_ORDER],
        help="only this crew role (repeatable)",
    )
    p.add_argument(
        "--column",
        action="append",
        choices=[c.value for c in VomColumn],
        help="only this column (repeatable)",
    )
    p.add_argument(
        "--morale",
        action="append",
        choices=[m.value for m in VOM_MORALES],
        help="only this Morale State (repeatable; Rout never reads the VOM)",
    )
    p.add_argument(
        "--cells", action="store_true", help="table per cell (with direction string or weapon), not per order"
    )
    p.add_argument("--format", choices=FORMATS, default="table", help="output format (default table)")
    p.set_defaults(func=_cmd_vom)

    p = dsub.add_parser("compare", help="two decks side by side per column (B - A); --png for a chart")
    p.add_argument("a", metavar="A", help="deck A: enemy_orders.yaml or a card set directory")
    p.add_argument("b", metavar="B", help="deck B: enemy_orders.yaml or a card set directory")
    p.add_argument("--png", metavar="FILE", help="also draw both decks' orders per column to this PNG")
    p.add_argument("--all", action="store_true", help="table: also the orders neither deck has")
    p.add_argument("--differences", action="store_true", help="table: only the rows where the decks differ")
    p.add_argument("--format", choices=FORMATS, default="table", help="output format (default table)")
    p.set_defaults(func=_cmd_compare)
