"""Exact deck and VOM odds (issue 6 item 3): every count checked against an independent brute force."""

from __future__ import annotations

import json
import random
import struct
from collections import Counter
from fractions import Fraction

import attrs
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from solo.cli.main import main
from solo.core.decks import Deck
from solo.core.dice import Dice
from solo.core.errors import DataError
from solo.core.resources import cards_dir
from solo.data.cards import CardRow, EnemyOrderEntry, OrderCode, load_enemy_deck
from solo.data.tables import MoraleState
from solo.data.vom import load_vom
from solo.playtest.odds_deck import compare_decks, deck_profile, load_deck, write_comparison_png
from solo.playtest.odds_next import CardContext, game_next_card_odds, next_card_odds, next_vom_odds
from solo.playtest.odds_vom import VOM_MORALES, vom_column_label, vom_odds
from solo.rules.state import Side

DECK = load_enemy_deck()
VOM = load_vom()
RAW_DECK = yaml.safe_load((cards_dir() / "enemy_orders.yaml").read_text())
RAW_VOM = yaml.safe_load((cards_dir() / "vehicle_order_matrix.yaml").read_text())

# base-rules §5.2, as printed there: orders then flag totals per column.
TABLE_5_2 = """
cover/aggressive | RF16 RG14 AF8 EV4 SP4 SN2 SF1 HI1 | G17 C21
cover/bold | AF13 RG12 RF11 EV6 SF3 HI3 SN2 | G25 C12
cover/normal | AF18 HI8 SF7 SN6 EV4 RG4 RF3 | G21
cover/cautious | HI13 AF10 RA10 EV4 RG4 SN4 SF3 RF2 | G9
cover/shaken | RA15 HI15 AF6 EV5 RG4 RF3 SF2 | G4
open/aggressive | RG16 SP8 RF7 EV6 AF5 SN4 SF4 | G14 C28
open/bold | RG14 EV12 SN8 RF8 AF6 SP2 | C26 G7
open/normal | SN14 RG12 EV8 AF7 SP4 SF3 RF2 | G9 C24
open/cautious | EV16 RG10 SN6 SF5 AF4 HI4 SP2 RA2 RF1 | G2
open/shaken | SN12 SP12 EV12 SF5 HI5 RA3 AF1 | G2
"""


def _table_5_2() -> dict[str, tuple[dict[str, int], dict[str, int]]]:
    out = {}
    for line in TABLE_5_2.strip().splitlines():
        column, orders, flags = (part.strip() for part in line.split("|"))
        out[column] = (
            {tok[:2]: int(tok[2:]) for tok in orders.split()},
            {tok[0]: int(tok[1:]) for tok in flags.split()},
        )
    return out


def _brute_raw_deck(raw: dict) -> dict[str, Counter]:
    """Count straight from the YAML text of each row: codes, flag sets, 'CODE dirs'."""
    out: dict[str, Counter] = {}
    for card in raw["cards"]:
        for table in ("cover", "open"):
            for row, text in card[table].items():
                tokens = str(text).split()
                code = tokens[0]
                dirs = next((t for t in tokens[1:] if t[0].isdigit()), None)
                flags = "".join(t for t in tokens[1:] if not t[0].isdigit())
                c = out.setdefault(f"{table}/{row}", Counter())
                c["order:" + code] += 1
                c["flags:" + flags] += 1
                if dirs is not None:
                    c[f"dir:{code} {dirs}"] += 1
    return out


def test_shipped_deck_odds_equal_a_brute_force_over_the_yaml():
    """Orders, flag sets and direction strings per column equal a count of the raw rows (base-rules §5.2)."""
    brute = _brute_raw_deck(RAW_DECK)
    profile = deck_profile(DECK)
    assert len(profile.columns) == 10
    for col in profile.columns:
        b = brute[col.name]
        for code, n in col.orders:
            assert n == b["order:" + code.value], (col.name, code)
        for flags, n in col.flags:
            assert n == b["flags:" + flags], (col.name, flags)
        got_dirs = {f"dir:{code.value} {d}": n for code, strings in col.directions for d, n in strings}
        assert got_dirs == {k: v for k, v in b.items() if k.startswith("dir:")}
        assert sum(n for _, n in col.orders) == col.total == 50


def test_rout_berserk_and_initiatives_equal_a_brute_force_over_the_yaml():
    """Rout/berserk strings, their pairs and the initiative histogram equal a count of raw cards (§5.1)."""
    profile = deck_profile(DECK)
    assert dict(profile.rout) == Counter(str(c["rout"]) for c in RAW_DECK["cards"])
    assert dict(profile.berserk) == Counter(str(c["berserk"]) for c in RAW_DECK["cards"])
    pairs = Counter((str(c["rout"]), str(c["berserk"])) for c in RAW_DECK["cards"])
    assert dict(profile.rout_berserk) == pairs
    inits = [c["initiative"] for c in RAW_DECK["cards"]]
    s = profile.initiative
    assert (s.minimum, s.maximum, s.count) == (min(inits), max(inits), 50)
    assert dict(s.histogram) == {t: sum(1 for i in inits if t <= i <= t + 9) for t in range(0, 100, 10)}


def test_shipped_profile_equals_the_base_rules_5_2_table():
    """The shipped deck's counts per column are exactly the base-rules §5.2 table (orders, G and C totals)."""
    profile = deck_profile(DECK)
    for column, (orders, flags) in _table_5_2().items():
        row, _, _ = column.partition("/")
        col = profile.column(column.split("/")[1], in_cover=row == "cover")
        assert {c.value: n for c, n in col.orders if n} == orders, column
        assert (col.grenade_checks, col.charge_checks) == (flags.get("G", 0), flags.get("C", 0)), column


def test_initiative_quartiles_of_the_odd_numbers_1_to_99():
    """Quartiles of 1, 3, … 99 by linear interpolation are 25.5, 50 and 74.5 (base-rules §5.1)."""
    s = deck_profile(DECK).initiative
    assert s.quartiles == (Fraction(51, 2), Fraction(50), Fraction(149, 2))


ENTRY_TEXTS = ("AF", "AF G", "RF GC", "SF C", "RG 5/6 GC", "SN 6", "EV 2/3 G", "SP 1/2 C", "RA", "HI")


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_any_deck_odds_equal_a_brute_force_over_its_cards(seed):
    """For any rewritten deck, each column's counts equal a loop over card × table × row (base-rules §5.2)."""
    pick = random.Random(seed)
    parsed = [EnemyOrderEntry.parse(t) for t in ENTRY_TEXTS]
    cards = []
    it = iter([pick.choice(parsed) for _ in range(50 * 10)])
    for card in DECK.cards:
        tables = {}
        for name in ("cover", "open"):
            table = getattr(card, name)
            tables[name] = attrs.evolve(table, **{r.value: next(it) for r in CardRow})
        cards.append(attrs.evolve(card, **tables))
    deck = attrs.evolve(DECK, cards=tuple(cards))
    profile = deck_profile(deck)
    for in_cover in (True, False):
        for row in CardRow:
            col = profile.column(row, in_cover=in_cover)
            for code in OrderCode:
                brute = 0
                for card in deck.cards:
                    table = card.cover if in_cover else card.open
                    if getattr(table, row.value).code is code:
                        brute += 1
                assert col.count(code) == brute
                assert col.probability(code) == Fraction(brute, 50)
            gc = sum(
                1
                for card in deck.cards
                if (e := (card.cover if in_cover else card.open).row(row)).grenade_check and e.charge_check
            )
            assert col.flag_count("GC") == gc


# ---------------------------------------------------------------------------
# VOM


def _raw_vom_order(role: str, column: str, number: int) -> str:
    for key, text in RAW_VOM["roles"][role]["columns"][column].items():
        first, _, last = str(key).partition("-")
        if int(first) <= number <= int(last or first):
            return str(text).split()[0]
    raise AssertionError(f"no row {number} in {role} {column}")


def test_vom_odds_sum_to_one_per_role_column_and_morale():
    """Every role × column × Morale State's order probabilities sum to exactly 1 (C2 31.11.3)."""
    odds = vom_odds(VOM, DECK)
    assert len(odds.entries) == len(VOM.columns) * len(VOM_MORALES)
    for e in odds.entries:
        assert sum(e.probability(o) for o, _ in e.orders) == 1
        assert sum(n for _, n in e.cells) == e.total == 50


def test_vom_odds_equal_a_brute_force_over_the_50_initiatives():
    """Each probability equals a count over the cards' initiatives + raw morale modifier, clamped 00-99."""
    odds = vom_odds(VOM, DECK)
    inits = [c["initiative"] for c in RAW_DECK["cards"]]
    for e in odds.entries:
        mod = RAW_VOM["morale_modifiers"][e.morale.value]
        brute = Counter(_raw_vom_order(e.role.value, e.column.value, min(99, max(0, i + mod))) for i in inits)
        assert dict(e.orders) == dict(brute), (e.role, e.column, e.morale)


def test_vom_odds_leave_out_rout_and_filter_by_role():
    """Rout never reads the VOM (C2 31.11.2); --role keeps that role's columns only."""
    assert MoraleState.ROUT not in VOM_MORALES
    odds = vom_odds(VOM, DECK, roles=["gunner"], morales=["normal"])
    assert {e.role.value for e in odds.entries} == {"gunner"}
    assert len(odds.entries) == 4
    assert odds.get("gunner", "target_bu", "normal").morale is MoraleState.NORMAL


def test_vom_column_labels_follow_vom_column():
    """Column labels come from vom_column: AFV columns name Target and hatch, the Truck column both kinds."""
    assert vom_column_label("target_open") == "AFV, Target, OPEN"
    assert vom_column_label("half_track_no_target") == "Half-Track, No Target"
    assert vom_column_label("truck") == "Jeep/Truck"


# ---------------------------------------------------------------------------
# The next card


def _drawn_after(seed: int, count: int) -> tuple[list[str], list[str]]:
    deck = Deck("enemy", [c.id for c in DECK.cards])
    dice = Dice(seed)
    deck.shuffle(dice, "test")
    drawn = [deck.draw(dice, "test").card for _ in range(count)]
    return drawn, list(deck.in_draw_pile())


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(0, 49),
    st.sampled_from(list(MoraleState)),
    st.booleans(),
)
def test_next_card_odds_equal_a_brute_force_over_the_remaining_pile(seed, count, morale, in_cover):
    """With cards drawn, each order's chance is its count over the cards left to draw (§5.3, §5.5)."""
    drawn, pile = _drawn_after(seed, count)
    odds = next_card_odds(DECK, drawn, CardContext(morale, in_cover))
    assert odds.pile == tuple(sorted(pile))
    remaining = [DECK.card(i) for i in pile]
    if morale is MoraleState.BERSERK:
        brute = Counter(str(c.berserk) for c in remaining)
        assert odds.orders == (("charge", len(pile)),)
        assert dict(odds.directions[0][1]) == brute
    elif morale is MoraleState.ROUT:
        brute = Counter(str(c.rout) for c in remaining)
        assert odds.orders == (("evade", len(pile)),)
        assert dict(odds.directions[0][1]) == brute
    else:
        brute = Counter(c.entry(CardRow(morale.value), in_cover=in_cover).code.value for c in remaining)
        assert dict(odds.orders) == brute
        for code, n in brute.items():
            assert odds.probability(code) == Fraction(n, len(pile))
        g = sum(1 for c in remaining if c.entry(CardRow(morale.value), in_cover=in_cover).grenade_check)
        assert odds.flag_probability("G") == Fraction(g, len(pile))


def test_next_card_odds_reject_unknown_repeated_and_all_drawn():
    """An unknown or repeated card id, or no card left, raises ValueError."""
    ctx = CardContext(MoraleState.NORMAL, True)
    with pytest.raises(ValueError, match="not in the deck"):
        next_card_odds(DECK, ["zz99"], ctx)
    with pytest.raises(ValueError, match="twice"):
        next_card_odds(DECK, ["e01", "e01"], ctx)
    with pytest.raises(ValueError, match="every card"):
        next_card_odds(DECK, [c.id for c in DECK.cards], ctx)


def test_next_vom_odds_count_the_remaining_pile():
    """A crewman's next-card VOM odds count only the cards left (C2 31.11.3)."""
    drawn, pile = _drawn_after(7, 20)
    got = next_vom_odds(VOM, DECK, drawn, "driver", "no_target_bu", "normal")
    brute = Counter(_raw_vom_order("driver", "no_target_bu", DECK.card(i).initiative) for i in pile)
    assert got.total == 30
    assert dict(got.orders) == dict(brute)


def test_game_next_card_odds_read_the_draw_pile_then_the_discards(tmp_path):
    """In a game the odds count the draw pile; with it empty, the discards to be reshuffled (§5.5)."""
    from conftest import make_game

    game = make_game(tmp_path)
    ch = game.state.active(Side.ENEMY)[0]
    ctx = CardContext(ch.morale, game.in_cover(ch))
    drawn = [game.enemy_deck.draw(game.dice, "test").card for _ in range(5)]
    got = game_next_card_odds(game, ch)
    assert got == next_card_odds(game.data.enemy_deck, drawn, ctx)
    assert got.total == 45
    drawn += [game.enemy_deck.draw(game.dice, "test").card for _ in range(45)]
    for card in drawn[:12]:
        game.enemy_deck.discard(card)
    got = game_next_card_odds(game, ch)
    assert got.pile == tuple(sorted(drawn[:12]))
    assert game_next_card_odds(game, game.state.active(Side.FRIENDLY)[0]) is None


# ---------------------------------------------------------------------------
# Comparison


def _tweaked_deck():
    """The shipped deck with e01's Cover/Aggressive AF turned into RF G."""
    card = DECK.card("e01")
    assert card.cover.aggressive.code is OrderCode.AF and not card.cover.aggressive.flags
    new = attrs.evolve(card, cover=attrs.evolve(card.cover, aggressive=EnemyOrderEntry.parse("RF G")))
    return attrs.evolve(DECK, cards=tuple(new if c.id == "e01" else c for c in DECK.cards), source="tweaked")


def test_compare_a_deck_with_itself_shows_no_difference():
    """A deck compared with itself: every row has difference 0 (base-rules §5.2)."""
    cmp = compare_decks(DECK, DECK)
    assert cmp.rows and all(r.difference == 0 and r.percent_difference == 0 for r in cmp.rows)
    assert cmp.differences() == ()


def test_compare_names_exactly_the_changed_counts():
    """One row changed from AF to RF G gives AF -1, RF +1, G only +1 in Cover/Aggressive, nothing else."""
    diffs = compare_decks(DECK, _tweaked_deck()).differences()
    assert {(r.column, r.key, r.difference) for r in diffs} == {
        ("cover/aggressive", "AF", -1),
        ("cover/aggressive", "RF", 1),
        ("cover/aggressive", "G only", 1),
    }
    assert next(r for r in diffs if r.key == "RF").percent_difference == 2


def test_comparison_png_is_written_atomically_and_is_a_valid_png(tmp_path):
    """The chart is a PNG (signature, IHDR size) and no temporary file is left beside it."""
    out = write_comparison_png(compare_decks(DECK, _tweaked_deck()), tmp_path / "cmp.png")
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1700, 720)
    assert [p.name for p in tmp_path.iterdir()] == ["cmp.png"]


# ---------------------------------------------------------------------------
# CLI


def _broken_copy(tmp_path):
    d = tmp_path / "broken"
    d.mkdir()
    lines = (cards_dir() / "enemy_orders.yaml").read_text().splitlines()
    i = next(n for n, line in enumerate(lines) if line.strip().startswith("initiative:"))
    lines[i] = lines[i].split(":")[0] + ": 44"
    (d / "enemy_orders.yaml").write_text("\n".join(lines) + "\n")
    return d, i + 1


def test_cli_odds_table_json_and_csv(capsys):
    """`solo deck odds` prints a fixed-width table, JSON with the counts, and CSV rows."""
    assert main(["deck", "odds"]) == 0
    table = capsys.readouterr().out
    assert "Cover/Aggressive   8 16%  16 32%" in table
    assert main(["deck", "odds", str(cards_dir()), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["columns"]["cover/aggressive"]["orders"]["RF"] == {
        "count": 16,
        "probability": "8/25",
        "percent": 32.0,
    }
    assert main(["deck", "odds", "--format", "csv"]) == 0
    csv_lines = capsys.readouterr().out.splitlines()
    assert csv_lines[0] == "section,column,key,count,total,probability,percent,value"
    assert "order,cover/aggressive,RF,16,50,8/25,32.0," in csv_lines


def test_cli_vom_filters_by_role(capsys):
    """`solo deck vom --role commander` prints the Commander's four columns, Morale States down."""
    assert main(["deck", "vom", "--role", "commander"]) == 0
    out = capsys.readouterr().out
    assert out.count("Commander, ") == 4
    assert "Driver" not in out
    assert "berserk     -20" in out


def test_cli_compare_asks_for_the_png_and_reports_no_difference(tmp_path, capsys, monkeypatch):
    """`solo deck compare A A --png FILE` hands the comparison to the chart writer and finds no difference."""
    import solo.cli.deck

    calls = []
    monkeypatch.setattr(
        solo.cli.deck, "write_comparison_png", lambda cmp, path, **kw: calls.append(path) or path
    )
    png = tmp_path / "cmp.png"
    assert main(["deck", "compare", str(cards_dir()), str(cards_dir()), "--png", str(png)]) == 0
    assert "No difference" in capsys.readouterr().out
    assert calls == [str(png)]


def test_building_the_solo_parser_imports_no_odds_module(tmp_path):
    """Every `solo` command builds the `deck` parsers; the odds modules load only for a deck command."""
    import subprocess
    import sys

    code = (
        "import sys; from solo.cli.main import build_parser; build_parser(); "
        "print(sorted(m for m in ('solo.playtest.odds_deck', 'solo.playtest.odds_vom', 'fractions') "
        "if m in sys.modules)); "
        "from solo.cli.main import main; main(['deck', 'vom', '--role', 'driver', '--format', 'csv']); "
        "print(sorted(m for m in ('solo.playtest.odds_deck', 'solo.playtest.odds_vom') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    ).stdout.splitlines()
    assert out[0] == "[]"
    assert out[-1] == "['solo.playtest.odds_deck', 'solo.playtest.odds_vom']"
    assert out[1].startswith("role,column,morale")


def test_cli_bad_deck_exits_2_with_path_line_and_writes_nothing(tmp_path, capsys):
    """A broken deck: exit 2, `path:line: message` on stderr, no PNG written."""
    broken, line = _broken_copy(tmp_path)
    png = tmp_path / "cmp.png"
    assert main(["deck", "compare", str(broken), str(cards_dir()), "--png", str(png)]) == 2
    err = capsys.readouterr().err
    assert f"{broken / 'enemy_orders.yaml'}:{line}: initiative 44 is even" in err
    assert not png.exists()
    assert main(["deck", "odds", str(broken)]) == 2
    assert f":{line}: " in capsys.readouterr().err


def test_cli_missing_file_or_directory_without_deck_exits_2(tmp_path, capsys):
    """A missing path or a directory without enemy_orders.yaml: exit 2 with one clear line each."""
    assert main(["deck", "odds", str(tmp_path / "nope.yaml")]) == 2
    assert "no such file or directory" in capsys.readouterr().err
    assert main(["deck", "vom", "--deck", str(tmp_path)]) == 2
    assert "no enemy_orders.yaml in this directory" in capsys.readouterr().err
    with pytest.raises(DataError, match=r"no enemy_orders\.yaml"):
        load_deck(tmp_path)


def test_profile_takes_a_deck_a_card_set_directory_or_nothing():
    """deck_profile reads a card set directory's enemy_orders.yaml, and the shipped deck by default."""
    assert deck_profile(cards_dir()) == deck_profile(DECK) == deck_profile()
