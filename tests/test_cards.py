"""The Enemy Order deck and the Friendly deck: shipped data, profile, loaders and validation."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo.core.errors import DataError
from solo.data.cards import (
    CardRow,
    DirectionString,
    EnemyOrderEntry,
    OrderCode,
    load_enemy_deck,
    order_profile,
)
from solo.data.friendly_deck import (
    EFFECT_KINDS,
    FriendlyCardKind,
    TriggerEvent,
    WoundStamp,
    effect_from_dict,
    effect_to_dict,
    load_friendly_deck,
)

# base-rules §5.2, column by column.
PROFILE_TABLE = {
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
FORWARD = (CardRow.AGGRESSIVE, CardRow.BOLD, CardRow.NORMAL)
BACKWARD = (CardRow.CAUTIOUS, CardRow.SHAKEN)


def _counts(text: str) -> dict[str, int]:
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"([A-Z]+)(\d+)", text)}


@pytest.fixture(scope="module")
def enemy():
    return load_enemy_deck()


@pytest.fixture(scope="module")
def friendly():
    return load_friendly_deck()


def _moves(deck, rows):
    for card in deck.cards:
        for table in (card.cover, card.open):
            for row in rows:
                entry = table.row(row)
                if entry.directions is not None:
                    yield row, entry


# ---------------------------------------------------------------------------
# The shipped Enemy deck


def test_shipped_enemy_deck_loads(enemy):
    """The shipped Enemy deck loads with 50 cards, named by its shipped path."""
    assert len(enemy.cards) == 50
    assert enemy.edition == "house"
    assert enemy.source == "cards/enemy_orders.yaml"


def test_enemy_initiatives_are_the_odd_numbers(enemy):
    """The initiatives are the odd numbers 1-99, each once (base-rules §5.1)."""
    assert sorted(c.initiative for c in enemy.cards) == list(range(1, 100, 2))


def test_enemy_ids_are_unique(enemy):
    """Every card id is distinct."""
    assert len({c.id for c in enemy.cards}) == 50


@pytest.mark.parametrize("column", list(PROFILE_TABLE))
def test_enemy_profile_matches_table(enemy, column):
    """Orders and flags per column equal the base-rules §5.2 table exactly."""
    orders, flags = PROFILE_TABLE[column]
    got = order_profile(enemy)[column]
    assert got["orders"] == _counts(orders)
    assert got["flags"] == _counts(flags)


def test_profile_has_ten_columns_cover_first(enemy):
    """order_profile lists Cover then Open, rows best first."""
    assert list(order_profile(enemy)) == list(PROFILE_TABLE)


def test_rout_berserk_pairs(enemy):
    """Rout/berserk pairs follow base-rules §5.1: (2,6)x13 (3,5)x13 (2/3,6/5)x11 (3/2,5/6)x13."""
    pairs = Counter((str(c.rout), str(c.berserk)) for c in enemy.cards)
    assert pairs == {("2", "6"): 13, ("3", "5"): 13, ("2/3", "6/5"): 11, ("3/2", "5/6"): 13}


def test_forward_rows_move_toward_5_or_6(enemy):
    """Every move in an Aggressive/Bold/Normal row points 5 or 6 (maybe with 1 or 4)."""
    for _row, entry in _moves(enemy, FORWARD):
        dirs = entry.directions.directions
        assert set(dirs) & {5, 6}, str(entry)
        assert set(dirs) <= {1, 4, 5, 6}, str(entry)


def test_backward_rows_move_toward_2_or_3(enemy):
    """Every move in a Cautious/Shaken row points 2 or 3 (maybe with 1 or 4)."""
    for _row, entry in _moves(enemy, BACKWARD):
        dirs = entry.directions.directions
        assert set(dirs) & {2, 3}, str(entry)
        assert set(dirs) <= {1, 2, 3, 4}, str(entry)


def test_pairs_outnumber_singles_about_5_to_3(enemy):
    """Pair direction strings outnumber singles about 5:3 (base-rules §5.2)."""
    sizes = Counter(len(e.directions.directions) for _, e in _moves(enemy, list(CardRow)))
    assert 1.45 <= sizes[2] / sizes[1] <= 1.9


def test_grenade_and_charge_together_only_in_aggressive_and_bold(enemy):
    """G and C share an entry only in Aggressive and Bold rows, and do so there."""
    rows = Counter(
        row
        for card in enemy.cards
        for table in (card.cover, card.open)
        for row, entry in table.rows()
        if entry.grenade_check and entry.charge_check
    )
    assert set(rows) == {CardRow.AGGRESSIVE, CardRow.BOLD}


def test_shipped_entries_read_back(enemy):
    """Every shipped row string formats back to a string that parses to the same entry."""
    for card in enemy.cards:
        for table in (card.cover, card.open):
            for _row, entry in table.rows():
                assert EnemyOrderEntry.parse(str(entry)) == entry


def test_entry_lookup_by_cover_and_row(enemy):
    """card.entry reads the Cover or Open table at the morale row (base-rules §5.3)."""
    card = enemy.cards[0]
    assert card.entry(CardRow.BOLD, in_cover=True) is card.cover.bold
    assert card.entry(CardRow.SHAKEN, in_cover=False) is card.open.shaken


def test_card_lookup_by_id_and_initiative(enemy):
    """A card is found by id and by initiative; a missing one raises KeyError."""
    card = enemy.cards[7]
    assert enemy.card(card.id) is card
    assert enemy.by_initiative(card.initiative) is card
    with pytest.raises(KeyError):
        enemy.by_initiative(2)


# ---------------------------------------------------------------------------
# Row strings and direction strings


def test_parse_full_entry():
    """'RG 5/6 GC' reads as Run & Gun 5/6 with both checks."""
    e = EnemyOrderEntry.parse("RG 5/6 GC")
    assert e.code is OrderCode.RG
    assert e.directions.directions == (5, 6)
    assert e.grenade_check and e.charge_check


def test_parse_fire_entry_without_directions():
    """'AF G' is Aimed Fire with a Grenade check and no direction string."""
    e = EnemyOrderEntry.parse("AF G")
    assert (e.code, e.directions, e.flags) == (OrderCode.AF, None, "G")


def test_direction_slots():
    """X/Y gives slots (X, Y); X gives (X, X) (base-rules §6 house rule)."""
    assert DirectionString.parse("6/1").slots == (6, 1)
    assert DirectionString.parse(2).slots == (2, 2)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("XX 5/6", "unknown order code"),
        ("AF 5", "takes no direction"),
        ("RG", "needs a direction"),
        ("RG 5/2", "adjacent"),
        ("SN 7", "outside 1-6"),
        ("SN 5/6/1", "one or two directions"),
        ("AF X", "unknown flag"),
        ("AF GG", "repeated"),
        ("", "empty"),
    ],
)
def test_parse_rejects_malformed_entries(text, words):
    """A malformed row string raises ValueError saying what is wrong."""
    with pytest.raises(ValueError, match=words):
        EnemyOrderEntry.parse(text)


@given(
    code=st.sampled_from(list(OrderCode)),
    first=st.integers(1, 6),
    pair=st.sampled_from([None, 1, -1]),
    flags=st.sampled_from(["", "G", "C", "GC"]),
)
def test_entry_string_round_trip(code, first, pair, flags):
    """Any valid entry formats to a string that parses back to it."""
    dirs = None
    if code.is_move:
        ds = (first,) if pair is None else (first, (first - 1 + pair) % 6 + 1)
        dirs = DirectionString(ds)
    entry = EnemyOrderEntry(code, dirs, grenade_check="G" in flags, charge_check="C" in flags)
    assert EnemyOrderEntry.parse(str(entry)) == entry


# ---------------------------------------------------------------------------
# The shipped Friendly deck


def test_shipped_friendly_deck_loads(friendly):
    """The Friendly deck has 52 cards: 50 numbered and the two Event cards."""
    assert len(friendly.cards) == 52
    assert len(friendly.numbered) == 50
    assert [c.kind for c in friendly.events] == [
        FriendlyCardKind.FRIENDLY_EVENT,
        FriendlyCardKind.ENEMY_EVENT,
    ]


def test_friendly_stamp_composition(friendly):
    """Wound stamps are 13 Close Call, 16 Light, 15 Bad, 6 KIA (base-rules §8)."""
    stamps = Counter(c.stamp for c in friendly.numbered)
    assert stamps == {
        WoundStamp.CLOSE_CALL: 13,
        WoundStamp.LIGHT: 16,
        WoundStamp.BAD: 15,
        WoundStamp.KIA: 6,
    }


def test_friendly_kind_composition(friendly):
    """The numbered cards are 32 Order and 18 Discard (base-rules §18)."""
    kinds = Counter(c.kind for c in friendly.numbered)
    assert kinds == {FriendlyCardKind.ORDER: 32, FriendlyCardKind.DISCARD: 18}


def test_friendly_initiatives_even(friendly):
    """Every numbered card has three even initiatives 2-98."""
    for card in friendly.numbered:
        for value in card.initiatives.as_tuple():
            assert 2 <= value <= 98 and value % 2 == 0


def test_event_cards_have_no_values_and_roll_their_table(friendly):
    """Event cards carry no initiatives or stamp and roll on their own table."""
    for card, table in zip(friendly.events, ("friendly", "enemy"), strict=True):
        assert card.initiatives is None and card.stamp is None
        assert isinstance(card.effect, TriggerEvent) and card.effect.table.value == table


def test_friendly_effects_round_trip(friendly):
    """Every shipped effect writes to a tagged mapping that reads back equal."""
    for card in friendly.cards:
        assert effect_from_dict(effect_to_dict(card.effect)) == card.effect


def test_friendly_deck_uses_the_effect_vocabulary(friendly):
    """The house deck uses every effect kind at least once."""
    assert {c.effect.kind for c in friendly.cards} == set(EFFECT_KINDS)


def test_wound_severity_order():
    """KIA > Bad > Light > Close Call (C2 24.1)."""
    order = sorted(WoundStamp, key=lambda s: s.severity)
    assert order == [WoundStamp.CLOSE_CALL, WoundStamp.LIGHT, WoundStamp.BAD, WoundStamp.KIA]


# ---------------------------------------------------------------------------
# Bad input: small broken files, each problem named with file and line


class Here:
    """Wraps a value in a test document: its line gets a ``# HERE`` comment."""

    def __init__(self, value: Any) -> None:
        self.value = value


def _scalar(value: Any) -> str:
    if isinstance(value, Here):
        return _scalar(value.value) + "  # HERE"
    if isinstance(value, dict) and not value:
        return "{}"
    if isinstance(value, list) and not value:
        return "[]"
    return json.dumps(value)


def _emit(obj: Any, indent: int = 0) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    if isinstance(obj, dict):
        for key, value in obj.items():
            if isinstance(value, (dict, list)) and value:
                lines.append(f"{pad}{key}:")
                lines += _emit(value, indent + 2)
            else:
                lines.append(f"{pad}{key}: {_scalar(value)}")
    else:
        for item in obj:
            if isinstance(item, (dict, list)) and item:
                lines.append(f"{pad}-")
                lines += _emit(item, indent + 2)
            else:
                lines.append(f"{pad}- {_scalar(item)}")
    return lines


def _write(path: Path, cards: list[dict]) -> list[int]:
    """Write a deck file; return the 1-based lines marked ``# HERE`` (or of ``cards:``)."""
    lines = ["# test deck", "edition: test", "cards:", *_emit(cards, 2)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [i + 1 for i, line in enumerate(lines) if line.endswith("# HERE")] or [3]


ROWS = [r.value for r in CardRow]


def _enemy_cards() -> list[dict]:
    return [
        {
            "id": f"e{k + 1:02d}",
            "initiative": 2 * k + 1,
            "cover": {row: "HI" for row in ROWS},
            "open": {row: "EV 5/6 G" for row in ROWS},
            "rout": "2/3",
            "berserk": 6,
        }
        for k in range(50)
    ]


def _friendly_cards() -> list[dict]:
    stamps = ["close_call"] * 13 + ["light"] * 16 + ["bad"] * 15 + ["kia"] * 6
    cards = [
        {
            "id": f"f{k + 1:02d}",
            "kind": "order" if k < 32 else "discard",
            "title": f"Card {k + 1}",
            "text": "Nothing happens.",
            "effect": {"kind": "none"},
            "initiatives": {"able": 2 + k, "baker": 50, "charlie": 98}
            if k % 2 == 0
            else {"able": 3 + k, "baker": 50, "charlie": 98},
            "stamp": stamps[k],
        }
        for k in range(50)
    ]
    for event in ("friendly", "enemy"):
        cards.append(
            {
                "id": f"{event}_event",
                "kind": f"{event}_event",
                "title": "Event",
                "text": "Roll on the Event table.",
                "effect": {"kind": "event", "table": event},
            }
        )
    return cards


def _check(exc: pytest.ExceptionInfo, path: Path, lines: list[int], words: list[str]) -> None:
    problems = exc.value.problems
    for line, word in zip(lines, words, strict=True):
        hits = [p for p in problems if p.line == line and word in p.message]
        assert hits, f"no problem with {word!r} on line {line}: {[str(p) for p in problems]}"
        assert all(p.path == str(path) for p in hits)


def test_valid_test_decks_load(tmp_path):
    """The builders below make decks that load (so each broken case breaks one thing)."""
    _write(tmp_path / "e.yaml", _enemy_cards())
    _write(tmp_path / "f.yaml", _friendly_cards())
    assert len(load_enemy_deck(tmp_path / "e.yaml").cards) == 50
    assert len(load_friendly_deck(tmp_path / "f.yaml").cards) == 52


def _set(cards: list[dict], k: int, keys: tuple, value: Any) -> None:
    target = cards[k]
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = value


ENEMY_CASES = {
    "bad_initiative_range": ((3, ("initiative",), Here(101)), "initiative: 101 is out of range 0–99"),
    "even_initiative": ((3, ("initiative",), Here(12)), "is even"),
    "repeated_initiative": ((4, ("initiative",), Here(1)), "repeated"),
    "duplicate_id": ((9, ("id",), Here("e01")), "duplicate card id"),
    "bad_id": ((9, ("id",), Here("E 10")), "snake_case"),
    "unknown_code": ((2, ("cover", "bold"), Here("XX")), "unknown order code"),
    "direction_on_fire": ((2, ("cover", "normal"), Here("AF 5")), "takes no direction"),
    "missing_direction": ((2, ("open", "bold"), Here("RG G")), "needs a direction"),
    "not_adjacent": ((2, ("open", "shaken"), Here("SN 2/5")), "adjacent"),
    "direction_outside": ((2, ("open", "cautious"), Here("EV 0")), "outside 1-6"),
    "unknown_flag": ((2, ("cover", "shaken"), Here("HI Q")), "unknown flag"),
    "row_not_a_string": ((2, ("cover", "shaken"), Here(5)), "expected an order entry"),
    "rout_outside": ((6, ("rout",), Here("3/4")), "rout '3/4'"),
    "berserk_outside": ((6, ("berserk",), Here(2)), "berserk '2'"),
    "bad_direction_string": ((6, ("rout",), Here("north")), "bad direction string"),
    "unknown_row": ((5, ("cover", "brave"), Here("HI")), "unknown key 'brave'"),
    "initiative_not_int": ((5, ("initiative",), Here("7")), "expected an integer"),
}


@pytest.mark.parametrize("case", list(ENEMY_CASES))
def test_enemy_bad_input_names_file_and_line(tmp_path, case):
    """Each malformed Enemy card is reported as a DataError at its file and line."""
    (k, keys, value), words = ENEMY_CASES[case]
    cards = _enemy_cards()
    _set(cards, k, keys, value)
    path = tmp_path / "enemy.yaml"
    lines = _write(path, cards)
    with pytest.raises(DataError) as exc:
        load_enemy_deck(path)
    _check(exc, path, lines, [words])


def test_enemy_missing_row_is_reported(tmp_path):
    """A table without its shaken row is reported at the table."""
    cards = _enemy_cards()
    del cards[1]["cover"]["shaken"]
    cards[1]["cover"]["aggressive"] = Here("HI")
    path = tmp_path / "enemy.yaml"
    lines = _write(path, cards)
    with pytest.raises(DataError) as exc:
        load_enemy_deck(path)
    _check(exc, path, lines, ["missing required key 'shaken'"])


def test_enemy_card_count_is_reported(tmp_path):
    """A deck of 49 cards is reported at its cards key."""
    path = tmp_path / "enemy.yaml"
    lines = _write(path, _enemy_cards()[:49])
    with pytest.raises(DataError) as exc:
        load_enemy_deck(path)
    _check(exc, path, lines, ["49 cards (expected 50, 1 too few)"])


def test_enemy_problems_reported_all_at_once(tmp_path):
    """Problems in different cards, structural and semantic, come in one DataError."""
    cards = _enemy_cards()
    cards[1]["cover"]["bold"] = Here("ZZ")
    cards[30]["initiative"] = Here(44)
    cards[40]["berserk"] = Here("2")
    path = tmp_path / "enemy.yaml"
    lines = _write(path, cards)
    with pytest.raises(DataError) as exc:
        load_enemy_deck(path)
    _check(exc, path, lines, ["unknown order code", "is even", "berserk"])


FRIENDLY_CASES = {
    "odd_initiative": ((4, ("initiatives", "baker"), Here(7)), "must be even, 2-98"),
    "initiative_too_high": ((4, ("initiatives", "charlie"), Here(100)), "charlie: 100 is out of range 0–99"),
    "event_with_initiatives": (
        (50, ("initiatives",), Here({"able": 2, "baker": 4, "charlie": 6})),
        "has no initiatives",
    ),
    "event_with_stamp": ((51, ("stamp",), Here("light")), "no wound stamp"),
    "event_wrong_table": (
        (50, ("effect",), Here({"kind": "event", "table": "enemy"})),
        "must be {kind: event, table: friendly}",
    ),
    "unknown_effect": ((7, ("effect",), Here({"kind": "air_support"})), "unknown effect kind"),
    "effect_without_kind": ((7, ("effect",), Here({"value": 1})), "missing required key 'kind'"),
    "unknown_stamp": ((8, ("stamp",), Here("scratch")), "unknown value 'scratch'"),
    "duplicate_id": ((12, ("id",), Here("f01")), "duplicate card id"),
    "empty_title": ((13, ("title",), Here("  ")), "title must not be empty"),
    "ws_zero": ((14, ("effect",), Here({"kind": "ws_modifier", "value": 0})), "must not be 0"),
    "bad_team": (
        (14, ("effect",), Here({"kind": "ws_modifier", "value": 1, "team": "one_character"})),
        "team must be one of",
    ),
}


@pytest.mark.parametrize("case", list(FRIENDLY_CASES))
def test_friendly_bad_input_names_file_and_line(tmp_path, case):
    """Each malformed Friendly card is reported as a DataError at its file and line."""
    (k, keys, value), words = FRIENDLY_CASES[case]
    cards = _friendly_cards()
    _set(cards, k, keys, value)
    path = tmp_path / "friendly.yaml"
    lines = _write(path, cards)
    with pytest.raises(DataError) as exc:
        load_friendly_deck(path)
    _check(exc, path, lines, [words])


def test_friendly_numbered_card_without_stamp(tmp_path):
    """A numbered card without a wound stamp is reported at the card."""
    cards = _friendly_cards()
    del cards[3]["stamp"]
    cards[3]["id"] = Here("f04")
    path = tmp_path / "friendly.yaml"
    lines = _write(path, cards)
    with pytest.raises(DataError) as exc:
        load_friendly_deck(path)
    _check(exc, path, lines, ["needs a wound stamp"])


def test_friendly_stamp_counts_say_which_and_how_much(tmp_path):
    """A Light stamp turned KIA is reported as 1 too few Light and 1 too many KIA."""
    cards = _friendly_cards()
    light = next(c for c in cards if c.get("stamp") == "light")
    light["stamp"] = "kia"
    path = tmp_path / "friendly.yaml"
    lines = _write(path, cards)
    with pytest.raises(DataError) as exc:
        load_friendly_deck(path)
    _check(
        exc,
        path,
        lines * 2,
        ["15 light stamps (expected 16, 1 too few)", "7 kia stamps (expected 6, 1 too many)"],
    )


def test_friendly_kind_counts_are_reported(tmp_path):
    """An Order card turned Discard breaks the 32/18 composition."""
    cards = _friendly_cards()
    cards[0]["kind"] = "discard"
    path = tmp_path / "friendly.yaml"
    lines = _write(path, cards)
    with pytest.raises(DataError) as exc:
        load_friendly_deck(path)
    _check(exc, path, lines * 2, ["31 order", "19 discard"])


def test_friendly_missing_event_and_card_count(tmp_path):
    """A deck without its Enemy Event and one numbered card short says both."""
    cards = [c for c in _friendly_cards() if c["id"] not in ("enemy_event", "f50")]
    path = tmp_path / "friendly.yaml"
    lines = _write(path, cards)
    with pytest.raises(DataError) as exc:
        load_friendly_deck(path)
    _check(exc, path, lines * 2, ["exactly one enemy_event", "49 numbered cards"])


def test_cards_must_be_a_list(tmp_path):
    """A deck whose cards are not a list is rejected, naming the file."""
    path = tmp_path / "deck.yaml"
    path.write_text("edition: x\ncards: abc\n", encoding="utf-8")
    for loader in (load_enemy_deck, load_friendly_deck):
        with pytest.raises(DataError) as exc:
            loader(path)
        assert exc.value.problems[0].path == str(path)
        assert exc.value.problems[0].line == 2


# ---------------------------------------------------------------------------
# Fuzz: nothing but DataError escapes the loaders

_KEYS = [
    "edition", "cards", "id", "initiative", "cover", "open", "rout", "berserk", *ROWS,
    "kind", "title", "text", "effect", "initiatives", "stamp", "able", "baker", "charlie",
    "value", "team", "scope", "table", "forbid", "roll", "count", "hexes", "with_enemy",
]  # fmt: skip
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 120),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(
        ["RG 5/6 GC", "AF G", "HI", "SN 2", "2/3", "6/5", "order", "discard", "light", "kia",
         "friendly_event", "event", "ws_modifier", "order_limit", "all", "able", "friendly"]
    ),
)  # fmt: skip
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(_KEYS) | st.text(max_size=4), inner, max_size=5)
    ),
    max_leaves=16,
)


def _fuzz_load(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    for loader in (load_enemy_deck, load_friendly_deck):
        try:
            loader(path)
        except DataError as exc:
            assert exc.problems


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=_VALUES)
def test_fuzz_random_documents(tmp_path_factory, doc):
    """Random YAML documents raise DataError or load; nothing else escapes."""
    path = tmp_path_factory.mktemp("fuzz") / "deck.yaml"
    _fuzz_load(path, yaml.safe_dump(doc))
    _fuzz_load(path, yaml.safe_dump({"edition": "x", "cards": [doc, doc]}))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, 5),
    path_choice=st.sampled_from(
        [("id",), ("initiative",), ("cover",), ("open", "bold"), ("rout",), ("kind",),
         ("effect",), ("effect", "value"), ("initiatives",), ("initiatives", "able"), ("stamp",)]
    ),
    value=_VALUES,
)  # fmt: skip
def test_fuzz_mutated_cards(tmp_path_factory, which, path_choice, value):
    """A small deck with one field replaced by random data raises DataError or loads."""
    path = tmp_path_factory.mktemp("fuzz") / "deck.yaml"
    small_decks = (
        (load_enemy_deck, _enemy_cards()[:6]),
        (load_friendly_deck, _friendly_cards()[:4] + _friendly_cards()[50:]),
    )
    for loader, cards in small_decks:
        target = cards[which]
        for key in path_choice[:-1]:
            target = target.setdefault(key, {}) if isinstance(target, dict) else {}
        if isinstance(target, dict):
            target[path_choice[-1]] = value
        path.write_text(yaml.safe_dump({"edition": "x", "cards": cards}), encoding="utf-8")
        with pytest.raises(DataError) as exc:  # small decks always break the card count
            loader(path)
        assert exc.value.problems


@settings(max_examples=40, deadline=None)
@given(text=st.text(max_size=60))
def test_fuzz_raw_text(tmp_path_factory, text):
    """Arbitrary text as a deck file raises DataError or loads."""
    _fuzz_load(tmp_path_factory.mktemp("fuzz") / "deck.yaml", text)
