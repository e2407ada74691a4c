"""Design the house-edition Enemy Order deck (``cards/enemy_orders.yaml``) from the base-rules §5.2 profile.

Usage::

    python tools/design_enemy_deck.py [--seed N] [--out PATH] [--check]

The generator deals, column by column (Cover/Open × Aggressive…Shaken), exactly
the orders and G/C flags of the §5.2 table, gives every move order a direction
string (5/6 leaning in Aggressive/Bold/Normal rows, 2/3 leaning in Cautious/
Shaken rows, pairs to singles about 5:3), and spreads the entries over the 50
cards by a per-card "temperament" so a card reads as a plausible mix. Rout and
berserk strings follow the §5.1 pair distribution; initiatives are the odd
numbers 1-99 shuffled.

Once written, the YAML is the source of truth: edit it by hand if you like and
use ``--check`` to print its profile against the table. Randomness here comes
only from ``random.Random(seed)``; nothing in ``solo/`` uses it.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "cards" / "enemy_orders.yaml"
DEFAULT_SEED = 1944

ROWS = ("aggressive", "bold", "normal", "cautious", "shaken")
FORWARD_ROWS = ("aggressive", "bold", "normal")
MOVE_CODES = ("RG", "SN", "EV", "SP")

# base-rules §5.2: orders and flags of the printed deck, column by column.
PROFILE: dict[str, tuple[str, str]] = {
    "cover/aggressive": ("RF16 RG14 AF8 EV4 SP4 SN2 SF1 HI1", "G17 C21"),
    "cover/bold": ("AF13 RG12 RF11 EV6 SF3 HI3 SN2", "G25 C12"),
    "cover/normal": ("AF18 HI8 SF7 SN6 EV4 RG4 RF3", "G21"),
    "cover/cautious": ("HI13 AF10 RA10 EV4 RG4 SN4 SF3 RF2", "G9"),
    "cover/shaken": ("RA15 HI15 AF6 EV5 RG4 RF3 SF2", "G4"),
    "open/aggressive": ("RG16 SP8 RF7 EV6 AF5 SN4 SF4", "G14 C28"),
    "open/bold": ("RG14 EV12 SN8 RF8 AF6 SP2", "C26 G7"),
    "open/normal": ("SN14 RG12 EV8 AF7 SP4 SF3 RF2", "G9 C24"),
    "open/cautious": ("EV16 RG10 SN6 SF5 AF4 HI4 SP2 RA2 RF1", "G2"),
    "open/shaken": ("SN12 SP12 EV12 SF5 HI5 RA3 AF1", "G2"),
}

# How many entries carry both G and C (only Aggressive and Bold rows, §5.2 prose).
BOTH_FLAGS = {"cover/aggressive": 8, "cover/bold": 6, "open/aggressive": 10, "open/bold": 5}

# (rout, berserk) pairs of §5.1.
ROUT_BERSERK = [("2", "6")] * 13 + [("3", "5")] * 13 + [("2/3", "6/5")] * 11 + [("3/2", "5/6")] * 13

PAIR_SHARE = 5 / 8  # pairs : singles about 5 : 3
FORWARD_MAIN = ("5/6", "6/5")
FORWARD_SIDE = ("6/1", "4/5", "1/6", "5/4")
FORWARD_SINGLE = ("5", "6")
BACKWARD_MAIN = ("2/3", "3/2")
BACKWARD_SIDE = ("3/4", "1/2", "4/3", "2/1")
BACKWARD_SINGLE = ("2", "3")
SIDE_SHARE = 0.25  # share of pairs that swing to 1 or 4

# Aggression of each order, for dealing entries to cards by temperament.
AGGRESSION = {
    "RG": 0.9,
    "SP": 0.85,
    "RF": 0.8,
    "AF": 0.65,
    "SF": 0.55,
    "SN": 0.5,
    "EV": 0.25,
    "HI": 0.15,
    "RA": 0.0,
}
TEMPERAMENT_NOISE = 0.3

# Weights for where flags fall (a check is more at home on some orders).
C_WEIGHT = {"RG": 3, "SP": 3, "SN": 2, "EV": 1, "RF": 2, "AF": 2, "SF": 2, "HI": 1, "RA": 1}
G_WEIGHT = {"RG": 2, "SP": 1, "SN": 3, "EV": 1, "RF": 3, "AF": 3, "SF": 3, "HI": 2, "RA": 1}


def parse_counts(text: str) -> dict[str, int]:
    """``"RF16 RG14"`` → ``{"RF": 16, "RG": 14}``."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"([A-Z]+)(\d+)", text)}


def weighted_sample(rng: random.Random, items: list[int], weights: list[float], k: int) -> list[int]:
    """``k`` of ``items`` without replacement, by weight (Efraimidis-Spirakis keys)."""
    keyed = sorted(
        ((rng.random() ** (1.0 / w), i) for i, w in zip(items, weights, strict=True)), reverse=True
    )
    return [i for _, i in keyed[:k]]


def deal_directions(rng: random.Random, n: int, forward: bool) -> list[str]:
    """``n`` direction strings for the move orders of one column, shuffled."""
    pairs = round(n * PAIR_SHARE)
    side = round(pairs * SIDE_SHARE)
    main = pairs - side
    main_opts, side_opts, single_opts = (
        (FORWARD_MAIN, FORWARD_SIDE, FORWARD_SINGLE)
        if forward
        else (BACKWARD_MAIN, BACKWARD_SIDE, BACKWARD_SINGLE)
    )
    start = rng.randrange(4)
    pool = [main_opts[(start + i) % 2] for i in range(main)]
    pool += [side_opts[(start + i) % 4] for i in range(side)]
    pool += [single_opts[(start + i) % 2] for i in range(n - pairs)]
    rng.shuffle(pool)
    return pool


def design_column(rng: random.Random, column: str) -> list[tuple[str, str, str]]:
    """The 50 entries (code, directions, flags) of one column, in no particular order."""
    orders_text, flags_text = PROFILE[column]
    codes = [code for code, n in parse_counts(orders_text).items() for _ in range(n)]
    assert len(codes) == 50, column
    forward = column.split("/")[1] in FORWARD_ROWS
    move_idx = [i for i, c in enumerate(codes) if c in MOVE_CODES]
    dirs = [""] * 50
    for i, d in zip(move_idx, deal_directions(rng, len(move_idx), forward), strict=True):
        dirs[i] = d
    flags = parse_counts(flags_text)
    g, c = flags.get("G", 0), flags.get("C", 0)
    both = BOTH_FLAGS.get(column, 0)
    idx = list(range(50))
    c_set = weighted_sample(rng, idx, [C_WEIGHT[codes[i]] for i in idx], c)
    gc_set = weighted_sample(rng, c_set, [G_WEIGHT[codes[i]] for i in c_set], both)
    rest = [i for i in idx if i not in c_set]
    g_set = gc_set + weighted_sample(rng, rest, [G_WEIGHT[codes[i]] for i in rest], g - both)
    marks = [("G" if i in g_set else "") + ("C" if i in c_set else "") for i in idx]
    return list(zip(codes, dirs, marks, strict=True))


def entry_text(code: str, dirs: str, flags: str) -> str:
    """The row string ``"RG 5/6 GC"``."""
    return " ".join(part for part in (code, dirs, flags) if part)


def design(seed: int) -> list[dict]:
    """The 50 cards as plain dicts, ordered by id."""
    rng = random.Random(seed)
    temperament = [rng.random() for _ in range(50)]
    cards_by_mood = sorted(range(50), key=lambda k: temperament[k])
    tables: dict[str, list[str]] = {}
    for column in PROFILE:
        entries = design_column(rng, column)
        scored = sorted(
            entries,
            key=lambda e: (
                AGGRESSION[e[0]]
                + 0.1 * ("G" in e[2])
                + 0.2 * ("C" in e[2])
                + rng.gauss(0.0, TEMPERAMENT_NOISE)
            ),
        )
        column_cards = [""] * 50
        for card, entry in zip(cards_by_mood, scored, strict=True):
            column_cards[card] = entry_text(*entry)
        tables[column] = column_cards
    initiatives = list(range(1, 100, 2))
    rng.shuffle(initiatives)
    pairs = list(ROUT_BERSERK)
    rng.shuffle(pairs)
    cards = []
    for k in range(50):
        cards.append(
            {
                "id": f"e{k + 1:02d}",
                "initiative": initiatives[k],
                "cover": {row: tables[f"cover/{row}"][k] for row in ROWS},
                "open": {row: tables[f"open/{row}"][k] for row in ROWS},
                "rout": pairs[k][0],
                "berserk": pairs[k][1],
            }
        )
    return cards


HEADER = """\
# Enemy Order deck -- HOUSE EDITION (original data for `solo`).
#
# Designed to the structure and profile of base-rules 5.1-5.2; these are not the
# printed cards. A player who owns the game can type the printed deck in this form.
#
# 50 cards. initiative: the brown circle, the odd numbers 1-99 each once.
# cover / open: the table used in Cover or in the Open (base-rules 5.4), one row per
# morale state. A row reads "CODE [X or X/Y] [G][C]":
#   CODE  AF Aimed Fire, RF Rapid Fire, SF Suppressive Fire, RG Run & Gun, SN Sneak,
#         EV Evade, SP Sprint, RA Rally, HI Hide
#   X/Y   direction string, only on the move orders RG SN EV SP (adjacent directions)
#   G, C  Grenade check, Charge check, made before the order is used (base-rules 5.3)
# rout (directions 2/3) and berserk (5/6): the strings read by a Routed or Berserk enemy.
#
# First dealt by tools/design_enemy_deck.py --seed {seed}; this file is the source of truth.
edition: house
cards:
"""


def to_yaml(cards: list[dict], seed: int) -> str:
    """The deck file text, one block per card."""
    out = [HEADER.replace("{seed}", str(seed))]
    for card in cards:
        out.append(f"  - id: {card['id']}\n")
        out.append(f"    initiative: {card['initiative']}\n")
        for table in ("cover", "open"):
            out.append(f"    {table}:\n")
            for row in ROWS:
                out.append(f"      {row + ':':<12}{card[table][row]}\n")
        out.append(f'    rout: "{card["rout"]}"\n')
        out.append(f'    berserk: "{card["berserk"]}"\n')
    return "".join(out)


def check(path: Path) -> int:
    """Print the deck's profile against §5.2; 0 if every column matches (the installed solo)."""
    from solo.data.cards import load_enemy_deck, order_profile

    profile = order_profile(load_enemy_deck(path))
    bad = 0
    for column, (orders_text, flags_text) in PROFILE.items():
        want_orders, want_flags = parse_counts(orders_text), parse_counts(flags_text)
        got = profile[column]
        ok = got["orders"] == want_orders and got["flags"] == want_flags
        bad += not ok
        orders = " ".join(f"{k}{v}" for k, v in got["orders"].items())
        flags = " ".join(f"{k}{v}" for k, v in got["flags"].items())
        print(f"{'ok ' if ok else 'OFF'} {column:<17} {orders:<40} {flags}")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="only check the existing file")
    args = parser.parse_args(argv)
    if not args.check:
        args.out.write_text(to_yaml(design(args.seed), args.seed), encoding="utf-8")
        print(f"wrote {args.out}")
    return check(args.out)


if __name__ == "__main__":
    sys.exit(main())
