"""Tests of solo.core.dice, chance_records, dice_expressions and decks: the one source of chance
(dice, picks, decks)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solo.core.chance_records import Draw, Pick, Roll, Shuffle, record_from_dict, record_to_dict
from solo.core.decks import Deck, DeckError
from solo.core.dice import ChanceRequest, Dice, ScriptedSource, SeededSource, TableSource, d3_of_d6
from solo.core.dice_expressions import DiceExpression, DiceExpressionError
from solo.core.errors import ChanceError, SoloError

GOLDEN_D10 = [1, 2, 9, 6, 7, 1, 6, 6, 5, 4, 2, 6, 5, 8, 5, 7, 6, 3, 5, 0]
GOLDEN_D6 = [3, 3, 2, 1, 4, 5, 2, 5, 2, 1]
GOLDEN_SHUFFLE = ["c9", "c2", "c7", "c4", "c6", "c5", "c1", "c0", "c8", "c3"]

GOLDEN_SCRIPT = """
import json
from solo.core.decks import Deck
from solo.core.dice import Dice
d = Dice(12345)
d10 = [d.d10("g").total for _ in range(20)]
d6 = [d.d6("g").total for _ in range(10)]
deck = Deck("t", [f"c{i}" for i in range(10)])
deck.shuffle(d, "g")
print(json.dumps([d10, d6, deck.to_dict()["draw_pile"]]))
"""


def _golden_stream() -> list[list[object]]:
    d = Dice(12345)
    d10 = [d.d10("g").total for _ in range(20)]
    d6 = [d.d6("g").total for _ in range(10)]
    deck = Deck("t", [f"c{i}" for i in range(10)])
    deck.shuffle(d, "g")
    return [d10, d6, deck.to_dict()["draw_pile"]]


def _roundtrip(data: dict) -> dict:
    return json.loads(json.dumps(data))


# --- golden stream -----------------------------------------------------------


def test_golden_seed_12345():
    """Seed 12345 gives the pinned first 20 d10, 10 d6 and a 10-card shuffle."""
    assert _golden_stream() == [GOLDEN_D10, GOLDEN_D6, GOLDEN_SHUFFLE]


@pytest.mark.parametrize("hashseed", ["0", "4242"])
def test_golden_stream_ignores_pythonhashseed(hashseed):
    """A subprocess with another PYTHONHASHSEED gives the same golden values."""
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    out = subprocess.run(
        [sys.executable, "-c", GOLDEN_SCRIPT],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out) == [GOLDEN_D10, GOLDEN_D6, GOLDEN_SHUFFLE]


def test_seeded_source_does_not_touch_global_random():
    """Rolling leaves the global random module's state alone."""
    import random

    before = random.getstate()
    d = Dice(7)
    for _ in range(50):
        d.d10("x")
    assert random.getstate() == before


def test_seed_must_be_int():
    """A non-int seed is refused (string seeding is not used)."""
    with pytest.raises(TypeError):
        SeededSource("12345")  # type: ignore[arg-type]


# --- records -----------------------------------------------------------------


def test_roll_record_carries_purpose_and_seq():
    """Each record names its purpose and is numbered in order from 0."""
    d = Dice(1)
    a = d.d10("spot: Sch. Ziegler -> Pvt Diaz")
    b = d.d6("wind")
    assert (a.kind, a.faces, a.total, a.purpose, a.seq) == (
        "d10",
        (a.total,),
        a.total,
        "spot: Sch. Ziegler -> Pvt Diaz",
        0,
    )
    assert (b.kind, b.seq) == ("d6", 1)


def test_records_are_frozen():
    """A record cannot be changed."""
    r = Dice(1).d10("x")
    with pytest.raises(AttributeError):
        r.total = 3  # type: ignore[misc]


def test_history_and_listener_see_every_record_in_order():
    """History and listener get the same records in order, draws included."""
    heard = []
    d = Dice(3, listener=heard.append)
    deck = Deck("enemy", ["a", "b"])
    made = [d.d10("x"), deck.shuffle(d, "setup"), deck.draw(d, "orders"), d.percent("y")]
    assert list(d.history) == made
    assert heard == made
    assert [r.seq for r in made] == [0, 1, 2, 3]


def test_take_history_empties_it():
    """take_history returns the records and starts a new history."""
    d = Dice(3)
    d.d6("a")
    taken = d.take_history()
    assert len(taken) == 1 and d.history == ()
    assert d.d6("b").seq == 1


def test_keep_history_off_keeps_nothing():
    """With keep_history=False no records accumulate."""
    d = Dice(3, keep_history=False)
    d.d6("a")
    assert d.history == () and d.seq == 1


def test_record_dict_round_trip():
    """Every record type survives record_to_dict -> JSON -> record_from_dict."""
    d = Dice(9)
    deck = Deck("x", ["a", "b", "c"])
    recs = [
        d.d10("a"),
        d.percent("b"),
        d.roll("1d6+4", "c"),
        d.choice(["p", "q"], "d"),
        deck.shuffle(d, "e"),
        deck.draw(d, "f"),
    ]
    assert [record_from_dict(_roundtrip(record_to_dict(r))) for r in recs] == recs


def test_record_repr_reads_back():
    """A Roll's repr evaluates to an equal Roll."""
    r = Roll(kind="d10", faces=(7,), total=7, purpose="spot", seq=12)
    assert eval(repr(r)) == r


# --- ranges and mappings ------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**64))
def test_faces_always_in_range(seed):
    """Every seeded face lies on its die, for any seed."""
    d = Dice(seed, keep_history=False)
    for _ in range(20):
        assert 0 <= d.d10("x").total <= 9
        assert 1 <= d.d6("x").total <= 6
        assert 1 <= d.d3("x").total <= 3
        p = d.percent("x")
        assert 0 <= p.total <= 99 and all(0 <= f <= 9 for f in p.faces)
        assert 0 <= d.choice("abcde", "x").index < 5


def test_seeded_d10_uses_all_faces():
    """Over 2000 rolls every d10 face 0-9 appears."""
    d = Dice(5, keep_history=False)
    assert {d.d10("x").total for _ in range(2000)} == set(range(10))


@pytest.mark.parametrize(("face", "d3"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_d3_mapping(face, d3):
    """A d3 reads the d6 face 1-2 as 1, 3-4 as 2, 5-6 as 3 (C2 23.7)."""
    r = Dice(ScriptedSource([face])).d3("pen")
    assert (r.kind, r.faces, r.total) == ("d3", (face,), d3)
    assert d3_of_d6(face) == d3


@pytest.mark.parametrize(("reading", "faces"), [(0, (0, 0)), (7, (0, 7)), (47, (4, 7)), (99, (9, 9))])
def test_percent_is_one_record_of_tens_and_units(reading, faces):
    """%D is one record: faces (tens, units), total 10*tens + units (C2 23.7)."""
    r = Dice(ScriptedSource([reading])).percent("event")
    assert (r.kind, r.faces, r.total) == ("%D", faces, 10 * faces[0] + faces[1])


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_percent_total_matches_faces(seed):
    """A seeded %D total always equals 10*tens + units."""
    d = Dice(seed, keep_history=False)
    for _ in range(10):
        r = d.percent("x")
        assert r.total == 10 * r.faces[0] + r.faces[1]


def test_choice_index_follows_face():
    """A scripted choice face k picks options[k-1]."""
    options = ["pvt_diaz", "sgt_kane", "pvt_ross"]
    pick = Dice(ScriptedSource([3])).choice(options, "random target (C2 23.2)")
    assert (pick.index, pick.face, pick.label, pick.size) == (2, 3, "pvt_ross", 3)


def test_choice_of_one_rolls_nothing():
    """One option is taken without using a scripted result."""
    src = ScriptedSource([5])
    pick = Dice(src).choice(["only"], "x")
    assert pick.index == 0 and src.remaining == (5,)


def test_choice_of_none_is_an_error():
    """An empty option list raises ValueError."""
    with pytest.raises(ValueError):
        Dice(1).choice([], "x")


# --- expressions ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "script", "canon", "total"),
    [
        ("1d6+4", [3], "1d6+4", 7),
        ("5+1d6", [6], "5+1d6", 11),
        ("2d6", [2, 5], "2d6", 7),
        (" 2 + D3 ", [5], "2+1d3", 5),
        ("1d10-2", [0], "1d10-2", -2),
    ],
)
def test_expression_rolls(text, script, canon, total):
    """Expressions roll their dice in order and add the constants."""
    r = Dice(ScriptedSource(script)).roll(text, "pen")
    assert (r.kind, r.faces, r.total) == (canon, tuple(script), total)


def test_two_d6_is_2d6_expression():
    """two_d6 rolls two d6 into one record of kind 2d6."""
    r = Dice(ScriptedSource([6, 6])).two_d6("x")
    assert (r.kind, r.faces, r.total) == ("2d6", (6, 6), 12)


def test_expression_bounds():
    """minimum and maximum follow the dice (d10 reads 0-9)."""
    e = DiceExpression.parse("2+1d3-1d10")
    assert (e.minimum, e.maximum) == (2 + 1 - 9, 2 + 3 - 0)


@pytest.mark.parametrize("bad", ["", "   ", "1d7", "0d6", "1d6+", "1d6++4", "abc", "+1d6", "4", "d"])
def test_bad_expression_raises_typed_error(bad):
    """Unreadable expressions raise DiceExpressionError, a SoloError and a ValueError."""
    with pytest.raises(DiceExpressionError) as info:
        Dice(1).roll(bad, "x")
    assert isinstance(info.value, SoloError) and isinstance(info.value, ValueError)


def test_bad_expression_message_names_the_text():
    """The error message quotes the expression."""
    with pytest.raises(DiceExpressionError, match="1d7"):
        DiceExpression.parse("1d7")


# --- scripted source -----------------------------------------------------------


def test_scripted_gives_faces_in_order():
    """ScriptedSource([7, 3, 9]) gives those d10 faces in order."""
    d = Dice(ScriptedSource([7, 3, 9]))
    assert [d.d10("x").total for _ in range(3)] == [7, 3, 9]


def test_scripted_exhaustion_names_purpose():
    """Running out of script raises ChanceError naming the roll's purpose."""
    d = Dice(ScriptedSource([4]))
    d.d10("first")
    with pytest.raises(ChanceError, match="morale check: Pvt Diaz"):
        d.d10("morale check: Pvt Diaz")


def test_scripted_wrong_face_names_purpose_and_is_kept():
    """A 7 forced on a d6 raises ChanceError naming the purpose; the 7 stays."""
    src = ScriptedSource([7])
    d = Dice(src)
    with pytest.raises(ChanceError, match="wind direction"):
        d.d6("wind direction")
    assert src.remaining == (7,)
    assert d.seq == 0


def test_scripted_d10_refuses_ten():
    """A 10 is not a d10 face (faces are 0-9)."""
    with pytest.raises(ChanceError):
        Dice(ScriptedSource([10])).d10("x")


def test_scripted_falls_back_to_seeded():
    """With a fallback seed, the script comes first and the seeded stream follows."""
    d = Dice(ScriptedSource([9], fallback=12345))
    assert d.d10("what if").total == 9
    assert [d.d10("then").total for _ in range(5)] == GOLDEN_D10[:5]


def test_scripted_cards_force_draws_by_id():
    """Forced card ids are drawn first, then the top of the pile."""
    d = Dice(ScriptedSource(cards={"enemy": ["e3", "e1"]}))
    deck = Deck("enemy", ["e1", "e2", "e3"])
    assert [deck.draw(d, "orders").card for _ in range(3)] == ["e3", "e1", "e2"]


def test_scripted_card_not_in_pile_raises():
    """A forced card that is not in the draw pile raises ChanceError naming the purpose."""
    d = Dice(ScriptedSource(cards={"enemy": ["zz"]}))
    deck = Deck("enemy", ["e1"])
    with pytest.raises(ChanceError, match="enemy orders"):
        deck.draw(d, "enemy orders")
    assert len(deck) == 1


def test_scripted_shuffle_keeps_order_without_fallback():
    """A pure script leaves a deck in the order it was laid out."""
    d = Dice(ScriptedSource())
    deck = Deck("x", ["a", "b", "c"])
    deck.shuffle(d, "setup")
    assert [deck.draw(d, "x").card for _ in range(3)] == ["a", "b", "c"]


# --- table mode --------------------------------------------------------------------


def test_table_callback_gets_kind_purpose_and_legal_values():
    """The callback sees the die kind, the purpose and the legal faces."""
    asked: list[ChanceRequest] = []

    def ask(req):
        asked.append(req)
        return 4

    r = Dice(TableSource(ask)).d10("spot: Sch. Ziegler -> Pvt Diaz")
    assert r.total == 4
    assert (asked[0].kind, asked[0].purpose, asked[0].legal) == (
        "d10",
        "spot: Sch. Ziegler -> Pvt Diaz",
        tuple(range(10)),
    )


def test_table_bad_answer_is_reasked_with_error():
    """An illegal answer is re-asked, the request carrying the error."""
    answers = iter([7, "x", "5"])
    asked: list[ChanceRequest] = []

    def ask(req):
        asked.append(req)
        return next(answers)

    r = Dice(TableSource(ask)).d6("wind")
    assert r.total == 5
    assert asked[0].error is None and asked[1].error and "7" in asked[1].error
    assert len(asked) == 3


def test_table_too_many_bad_answers_raise():
    """After max_attempts refused answers ChanceError names the purpose."""
    with pytest.raises(ChanceError, match="wind"):
        Dice(TableSource(lambda req: 0, max_attempts=2)).d6("wind")


def test_table_none_answer_raises():
    """A None answer (the player gave up) raises ChanceError at once."""
    calls = []
    with pytest.raises(ChanceError):
        Dice(TableSource(lambda req: calls.append(req))).d10("x")
    assert len(calls) == 1


def test_table_percent_takes_one_reading():
    """%D in table mode asks once for 0-99."""
    asked = []
    d = Dice(TableSource(lambda req: asked.append(req) or "07"))
    r = d.percent("event")
    assert (r.faces, r.total) == ((0, 7), 7)
    assert asked[0].legal == tuple(range(100))


def test_table_draw_asks_which_card():
    """In table mode a draw asks which card, the legal answers being the draw pile."""
    asked: list[ChanceRequest] = []

    def ask(req):
        asked.append(req)
        return "b" if req.kind == "card" else None

    d = Dice(TableSource(ask))
    deck = Deck("enemy", ["c", "a", "b"])
    draw = deck.draw(d, "enemy orders")
    assert draw.card == "b"
    assert (asked[0].kind, asked[0].deck, asked[0].legal) == ("card", "enemy", ("a", "b", "c"))
    assert deck.in_draw_pile() == ("a", "c")


def test_table_shuffle_is_a_notice():
    """A table-mode shuffle tells the player to shuffle and ignores the answer."""
    asked = []
    d = Dice(TableSource(lambda req: asked.append(req) or 3))
    Deck("enemy", ["a", "b"]).shuffle_all(d, "event")
    assert [(r.kind, r.deck, r.purpose) for r in asked] == [("shuffle", "enemy", "event")]


def test_table_choice_lists_options():
    """A table-mode choice passes the options and legal faces 1..n."""
    asked = []
    pick = Dice(TableSource(lambda req: asked.append(req) or 2)).choice(["x", "y", "z"], "tie")
    assert pick.index == 1
    assert (asked[0].options, asked[0].legal) == (("x", "y", "z"), (1, 2, 3))


# --- serialisation ---------------------------------------------------------------------


def _mixed_stream(d: Dice, deck: Deck, n: int) -> list:
    out = []
    for i in range(n):
        out.append(d.d10(f"r{i}"))
        out.append(d.roll("2+1d3", f"e{i}"))
        out.append(d.percent(f"p{i}"))
        out.append(d.choice(["a", "b", "c", "d"], f"c{i}"))
        drawn = deck.draw(d, f"d{i}")
        out.append(drawn)
        deck.discard(drawn.card)
    return out


def test_seeded_resume_mid_stream_is_identical():
    """Dice and Deck serialised mid-stream continue exactly as the originals."""
    d = Dice(777)
    deck = Deck("enemy", [f"e{i:02d}" for i in range(12)])
    deck.shuffle(d, "setup")
    _mixed_stream(d, deck, 7)
    d2 = Dice.from_dict(_roundtrip(d.to_dict()))
    deck2 = Deck.from_dict(_roundtrip(deck.to_dict()))
    assert _mixed_stream(d, deck, 20) == _mixed_stream(d2, deck2, 20)


def test_scripted_resume_keeps_script_and_fallback():
    """A scripted source resumes with its remaining script, cards and fallback state."""
    d = Dice(ScriptedSource([1, 2, 3, 4], {"x": ["b", "a"]}, fallback=5))
    deck = Deck("x", ["a", "b", "c"])
    d.d10("a")
    deck.draw(d, "first")
    d2 = Dice.from_dict(_roundtrip(d.to_dict()))
    deck2 = Deck.from_dict(_roundtrip(deck.to_dict()))
    first = [d.d10("n").total for _ in range(8)] + [deck.draw(d, "z").card]
    second = [d2.d10("n").total for _ in range(8)] + [deck2.draw(d2, "z").card]
    assert first == second
    assert first[:3] == [2, 3, 4] and first[-1] == "a"


def test_table_resume_needs_callback():
    """A table-mode state loads with its callback and not without."""
    data = _roundtrip(Dice(TableSource(lambda r: 1, max_attempts=4)).to_dict())
    with pytest.raises(ValueError):
        Dice.from_dict(data)
    d = Dice.from_dict(data, callback=lambda r: 6)
    assert d.d6("x").total == 6
    assert d.source.max_attempts == 4


def test_dice_state_is_plain_json():
    """The dice state dumps to JSON and reloads to the same dict."""
    d = Dice(1)
    d.d10("x")
    data = d.to_dict()
    assert _roundtrip(data) == data
    assert data["seq"] == 1


def test_deck_state_keeps_cards_out():
    """A deck's dict round trip keeps piles, discards and the cards out."""
    d = Dice(2)
    deck = Deck("f", ["a", "b", "c", "d"])
    x = deck.draw(d, "1").card
    deck.draw(d, "2")
    deck.discard(x)
    back = Deck.from_dict(_roundtrip(deck.to_dict()))
    assert back.to_dict() == deck.to_dict()
    assert back.out() == deck.out() and len(back.out()) == 1
    back.discard(back.out()[0])  # the card out may be discarded after the round trip
    assert back.out() == () and len(back.discards) == 2


def test_draw_card_is_the_same_draw_as_draw():
    """draw_card takes the same cards and seq as draw; its record is kept only when the dice keep one."""
    kept, plain, quiet = Dice(7), Dice(7), Dice(7, keep_history=False)
    decks = [Deck("e", [f"c{i}" for i in range(5)]) for _ in range(3)]
    for deck, dice in zip(decks, (kept, plain, quiet), strict=True):
        deck.shuffle(dice, "start")
    heard = []
    quiet.listener = heard.append
    for i in range(12):  # past an empty draw pile: the discards reshuffled
        a = decks[0].draw_card(kept, f"p{i}")
        b = decks[1].draw(plain, f"p{i}").card
        c = decks[2].draw_card(quiet, f"p{i}")
        assert a == b == c
        for deck, card in zip(decks, (a, b, c), strict=True):
            deck.discard(card)
    assert kept.history == plain.history and kept.seq == plain.seq == quiet.seq
    assert quiet.history == () and [r.card for r in heard if isinstance(r, Draw)] == [
        r.card for r in kept.history if isinstance(r, Draw)
    ]
    bare = Dice(7, keep_history=False)
    deck = Deck("e", ["x", "y"])
    assert deck.draw_card(bare, "q") == "x" and bare.seq == 1 and bare.history == ()


def test_bad_deck_state_raises():
    """A deck state whose piles hold unknown cards raises DeckError."""
    data = Deck("f", ["a", "b"]).to_dict()
    data["cards"] = ["a"]
    with pytest.raises(DeckError):
        Deck.from_dict(data)


# --- decks -------------------------------------------------------------------------


def test_deck_reshuffles_discards_when_empty():
    """An empty draw pile is replaced by the shuffled discards (rulebook 9.0)."""
    d = Dice(11)
    deck = Deck("enemy", ["a", "b", "c"])
    for _ in range(3):
        deck.discard(deck.draw(d, "x").card)
    assert len(deck) == 0
    draw = deck.draw(d, "fourth")
    shuffle = d.history[-2]
    assert isinstance(shuffle, Shuffle) and shuffle.with_discards and shuffle.size == 3
    assert isinstance(draw, Draw) and len(deck) == 2 and deck.discards == ()


def test_deck_all_out_raises():
    """Drawing with no cards in draw pile or discards raises DeckError."""
    d = Dice(1)
    deck = Deck("enemy", ["a"])
    deck.draw(d, "x")
    with pytest.raises(DeckError, match="enemy"):
        deck.draw(d, "y")


def test_shuffle_all_takes_discards_not_cards_out():
    """shuffle_all puts the discards back; cards out stay out."""
    d = Dice(4)
    deck = Deck("f", ["a", "b", "c", "d"])
    a = deck.draw(d, "1").card
    b = deck.draw(d, "2").card
    deck.discard(a)
    deck.shuffle_all(d, "event")
    assert deck.out() == (b,) and deck.discards == () and len(deck) == 3


def test_discard_refuses_cards_not_out():
    """Discarding a card in the pile, already discarded, or foreign raises DeckError."""
    d = Dice(4)
    deck = Deck("f", ["a", "b"])
    card = deck.draw(d, "1").card
    deck.discard(card)
    for bad in (card, "zzz", deck.in_draw_pile()[0]):
        with pytest.raises(DeckError):
            deck.discard(bad)


def test_duplicate_card_ids_refused():
    """A deck cannot hold one card id twice."""
    with pytest.raises(DeckError):
        Deck("f", ["a", "a"])


def test_deck_is_peek_free():
    """The public view of the draw pile is sorted, not in draw order."""
    d = Dice(12345)
    deck = Deck("t", [f"c{i}" for i in range(10)])
    deck.shuffle(d, "g")
    top = deck.to_dict()["draw_pile"][0]
    assert deck.in_draw_pile() == tuple(f"c{i}" for i in range(10))
    assert deck.draw(d, "x").card == top


@settings(max_examples=80, deadline=None)
@given(
    st.integers(min_value=0, max_value=2**32),
    st.lists(st.sampled_from(["draw", "discard", "shuffle", "shuffle_all"]), max_size=60),
)
def test_deck_never_loses_or_duplicates_a_card(seed, ops):
    """Across any draw/discard/shuffle sequence every card is in exactly one place."""
    d = Dice(seed, keep_history=False)
    cards = [f"k{i}" for i in range(7)]
    deck = Deck("h", cards)
    hand: list[str] = []
    for op in ops:
        if op == "draw":
            if len(deck) or deck.discards:
                hand.append(deck.draw(d, "x").card if len(hand) % 2 else deck.draw_card(d, "x"))
        elif op == "discard" and hand:
            deck.discard(hand.pop(0))
        elif op == "shuffle":
            deck.shuffle(d, "x")
        elif op == "shuffle_all":
            deck.shuffle_all(d, "x")
        state = deck.to_dict()
        places = state["draw_pile"] + state["discards"] + hand
        assert sorted(places) == sorted(cards)
        assert tuple(sorted(hand)) == deck.out()


def test_pick_record_type():
    """choice returns a Pick record."""
    assert isinstance(Dice(1).choice(["a", "b"], "x"), Pick)
