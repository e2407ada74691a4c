"""Replay navigation, branches, bookmarks and undo that respects information (issue 6 items 1-2)."""

from __future__ import annotations

import json

import attrs
import pytest
from conftest import house_data
from hypothesis import given
from hypothesis import strategies as st

from solo.cli.main import main
from solo.core.errors import ChanceError
from solo.core.log import Header, LogError, comparable, read_log, write_log
from solo.playtest import history, history_branch, history_view
from solo.playtest.play import header_for, new_game, replay
from solo.playtest.policies import make_policy

SCENARIO = "first_contact"
SEED = 1


@pytest.fixture(scope="module")
def parent(tmp_path_factory):
    """A whole game of first_contact played by the simple policy, written to a log."""
    game = new_game(SCENARIO, seed=SEED, data=house_data())
    game.play(make_policy("simple"))
    path = tmp_path_factory.mktemp("history") / "parent.jsonl"
    write_log(path, header_for(game, SCENARIO, SEED, policy="simple"), game.events)
    return path


@pytest.fixture(scope="module")
def hist(parent):
    return history.History.from_log(parent, data=house_data())


def _choice_events(events):
    return [i for i, ev in enumerate(events) if ev.kind == "choice" and not ev.automatic]


def _value_records_after(events, start):
    """The roll events after ``start`` that used a die (not a draw, a shuffle or a one-option pick)."""
    out = []
    for ev in events[start + 1 :]:
        t = ev.data.get("type") if ev.kind == "roll" else None
        if t == "roll" or (t == "pick" and ev.data["size"] > 1):
            out.append(ev)
    return out


def _play_to_news(word):
    """A game played by the simple policy up to the first choice after which ``word`` came to light."""
    game = new_game(SCENARIO, seed=SEED, data=house_data())
    policy = make_policy("simple")
    while game.pending is not None:
        game.apply(policy(game, game.pending))
        blocker = history.undo_blocker(game)
        if blocker and word in blocker:
            return game
    raise AssertionError(f"no choice followed by {word!r}")


# -- points -----------------------------------------------------------------


@given(st.integers(1, 99), st.integers(0, 4))
def test_parse_point_reads_turn_dot_impulse(turn, impulse):
    """'T.I' reads as (T, I) for any turn from 1 and impulse 0-4."""
    assert history.parse_point(f"{turn}.{impulse}") == (turn, impulse)


@pytest.mark.parametrize("text", ["3.x", "3.7", "0.1", "#", "3..2", "", "1.2.3", "#x"])
def test_parse_point_refuses_malformed_points(text):
    """A malformed point raises PointError naming the forms a point takes."""
    with pytest.raises(history.PointError, match=r"TURN\.IMPULSE"):
        history.parse_point(text)


def test_split_log_point_needs_an_at_sign():
    """LOG@POINT splits at the last '@'; without one it is an error."""
    assert history.split_log_point("a@b/game.jsonl@#12") == ("a@b/game.jsonl", 12)
    with pytest.raises(history.PointError):
        history.split_log_point("game.jsonl")


def test_rebuild_stops_at_the_first_decision_at_or_after_the_point(parent, hist):
    """rebuild(to=(2, 1)) gives the first decision at or after turn 2 Impulse 1, none before it."""
    game = history_branch.rebuild(parent, to=(2, 1), data=house_data())
    d = game.pending
    assert (d.turn, d.impulse) >= (2, 1)
    index = len(game.inputs)
    assert hist.positions()[index - 1].point < (2, 1)
    assert hist.index_of((2, 1)) == index


def test_rebuild_past_the_end_of_the_log_is_refused(parent):
    """A point after the log's last event raises PointError saying where the log ends."""
    with pytest.raises(history.PointError, match="past the end"):
        history_branch.rebuild(parent, to=(99, 1), data=house_data())


def test_at_rebuilds_the_same_events_as_the_log(parent, hist):
    """The game at decision n has exactly the log's events up to the n-th choice."""
    _header, events = read_log(parent)
    n = hist.last // 2
    game = hist.at(n)
    assert len(game.inputs) == n
    assert [comparable(e) for e in game.events] == [comparable(e) for e in events[: len(game.events)]]
    assert events[len(game.events)].kind == "choice"


# -- navigation -------------------------------------------------------------


def test_positions_cover_every_decision_and_the_end(hist):
    """positions() has one entry per input plus the end, each labelled with its number and turn."""
    ps = hist.positions()
    assert len(ps) == hist.last + 1
    assert [p.index for p in ps] == list(range(hist.last + 1))
    assert ps[0].label.startswith("#0 1.0 ")
    assert ps[-1].kind is None and "end of the log" in ps[-1].label


def test_step_by_turn_goes_to_the_next_turn_and_back(hist):
    """next(by='turn') lands on the first decision of the next turn; prev goes back to this turn's start."""
    ps = hist.positions()
    i = hist.next(0, "turn")
    assert ps[i].turn == 2 and ps[i - 1].turn == 1
    assert hist.prev(i, "turn") == 0
    assert hist.prev(i + 1, "turn") == i


def test_step_by_impulse_and_activation_change_their_key(hist):
    """Stepping by Impulse or activation lands where the (turn, impulse) or the activation changes."""
    ps = hist.positions()
    i = hist.next(0, "impulse")
    assert ps[i].point != ps[0].point
    j = hist.next(i, "activation")
    assert ps[j].key("activation") != ps[i].key("activation")
    assert hist.prev(j, "activation") == i or ps[hist.prev(j, "activation")].key("activation") == ps[
        j - 1
    ].key("activation")


def test_step_by_decision_moves_one(hist):
    """By decision, next and prev move by one and stop at the ends."""
    assert hist.next(5) == 6 and hist.prev(5) == 4
    assert hist.prev(0) == 0 and hist.next(hist.last) == hist.last


# -- bookmarks --------------------------------------------------------------


def test_bookmarks_round_trip_through_the_log(parent, tmp_path):
    """Bookmarks set on a History and saved are read back from the log header, and it still replays."""
    h = history.History.from_log(parent, data=house_data())
    h.add_bookmark("contact", (2, 1))
    h.add_bookmark("start", 0)
    out = h.save(tmp_path / "marked.jsonl")
    again = history.History.from_log(out, data=house_data())
    assert again.bookmarks == {"contact": h.index_of((2, 1)), "start": 0}
    assert again.resolve("contact") == h.index_of((2, 1))
    assert replay(out, data=house_data()).ok


def test_bad_bookmark_name_is_refused(hist):
    """A bookmark name must start with a letter: '3.2' would read as a point."""
    with pytest.raises(history.PointError, match="bad bookmark name"):
        hist.add_bookmark("3.2", 0)


# -- branches ---------------------------------------------------------------


def test_branch_replays_its_parent_up_to_the_branch_point(parent, hist, tmp_path):
    """A branch has its parent's events up to the branch point; played on, it replays exactly."""
    _header, events = read_log(parent)
    k = hist.last // 2
    game = hist.branch(k)
    n = len(game.events)
    assert [comparable(e) for e in game.events] == [comparable(e) for e in events[:n]]
    game.play(make_policy("random", seed=5))
    out = history_branch.save_game(game, tmp_path / "branch.jsonl", policy="random")
    header, _ = read_log(out)
    assert header.parent["at_input"] == k and header.parent["path"] == str(parent)
    assert header.parent["data_version"] == hist.header.data_version
    assert (header.parent["turn"], header.parent["impulse"]) == hist.position(k).point
    assert replay(out, data=house_data()).ok


def test_branch_with_forced_dice_changes_the_next_roll_and_replays(parent, hist, tmp_path):
    """Forced dice at the branch point are the next die results; the branch log replays exactly."""
    _header, events = read_log(parent)
    choices = _choice_events(events)
    k = next(
        i
        for i, at in enumerate(choices)
        if (r := _value_records_after(events, at)) and r[0].data["kind"] == "d10"
    )
    logged = _value_records_after(events, choices[k])[0].data["faces"][0]
    forced = (logged + 1) % 10
    game = hist.branch(k, forced_dice=[forced])
    start = len(game.events)
    i = k
    while not _value_records_after(game.events, start - 1):  # the parent's choices up to that roll
        game.apply(hist.inputs[i])
        i += 1
    first = _value_records_after(game.events, start - 1)[0]
    assert first.data["faces"] == [forced] != [logged]
    game.play(make_policy("simple"))
    out = history_branch.save_game(game, tmp_path / "forced.jsonl", policy="simple")
    header, _ = read_log(out)
    assert header.forced == ({"at_input": k, "dice": (forced,), "cards": {}},)
    assert replay(out, data=house_data()).ok


def test_branch_with_a_forced_card_draws_it_next(hist, tmp_path):
    """A forced Enemy card is the next Enemy draw; the branch of that branch replays too."""
    k = hist.index_of((2, 0))
    probe = hist.branch(k)
    card = probe.enemy_deck.in_draw_pile()[-1]
    game = hist.branch(k, forced_cards={"enemy": [card]})
    start = len(game.events)
    game.play(make_policy("simple"))
    draws = [
        e
        for e in game.events[start:]
        if e.kind == "roll" and e.data.get("deck") == "enemy" and "card" in e.data
    ]
    assert draws[0].data["card"] == card
    out = history_branch.save_game(game, tmp_path / "card.jsonl", policy="simple")
    assert replay(out, data=house_data()).ok
    second = history_branch.branch(out, k + 3, forced_dice=[0], data=house_data())
    second.play(make_policy("random", seed=1))
    out2 = history_branch.save_game(second, tmp_path / "card2.jsonl", policy="random")
    header, _ = read_log(out2)
    assert [f["at_input"] for f in header.forced] == [k, k + 3]
    assert replay(out2, data=house_data()).ok


def test_branch_refuses_an_unknown_deck_or_card(hist):
    """A forced card from a deck that does not exist, or not in the deck, is a ChanceError."""
    with pytest.raises(ChanceError, match="no deck"):
        hist.branch(3, forced_cards={"allied": ["e01"]})
    with pytest.raises(ChanceError, match="not in the enemy deck"):
        hist.branch(3, forced_cards={"enemy": ["zz99"]})


def test_branch_at_the_end_of_a_finished_game_is_refused(hist):
    """The end of a finished game has nothing to choose: PointError."""
    with pytest.raises(history.PointError, match="end of the game"):
        hist.branch(hist.last)


def test_a_log_from_another_data_version_is_refused(parent, tmp_path):
    """History and branch refuse a log made with other data (LogError)."""
    header, events = read_log(parent)
    other = tmp_path / "other.jsonl"
    write_log(other, attrs.evolve(header, data_version="0000000000000000"), events)
    with pytest.raises(LogError, match="data version"):
        history.History.from_log(other, data=house_data())


def test_header_refuses_a_malformed_forced_entry():
    """A forced entry without an input index or with a non-integer die is a LogError."""
    d = Header("first_contact", 1, "v").to_dict()
    d["forced"] = [{"at_input": -1, "dice": [1]}]
    with pytest.raises(LogError, match=r"^log:1: a forced result's at_input must be a decision number 0 or"):
        Header.from_dict(d)
    d["forced"] = [{"at_input": 2, "dice": ["x"]}]
    with pytest.raises(LogError, match=r"^log:1: a forced result's dice must be a list of die readings 0-99"):
        Header.from_dict(d)


# -- undo -------------------------------------------------------------------


def test_undo_takes_back_a_choice_when_nothing_came_to_light():
    """An order given with no roll since can be undone: the game waits at that decision again."""
    game = new_game(SCENARIO, seed=SEED, data=house_data())
    policy = make_policy("simple")
    for _ in range(2):
        game.apply(policy(game, game.pending))
    before = game.pending
    game.apply(policy(game, before))
    assert history.can_undo(game)
    back = history.undo(game)
    assert back.pending == before and len(back.inputs) == 2
    assert not history_branch.header_of(back).sandbox


def test_undo_refuses_to_cross_a_card_drawn():
    """Undo is refused once a card was drawn since the choice, naming the draw."""
    game = _play_to_news("draw ")
    assert not history.can_undo(game)
    with pytest.raises(history.UndoRefused, match="draw ") as info:
        history.undo(game)
    assert any("draw " in r for r in info.value.revealed)


def test_undo_refuses_to_cross_a_roll():
    """Undo is refused once a die was rolled since the choice."""
    game = _play_to_news("d10 →")
    with pytest.raises(history.UndoRefused, match="d10"):
        history.undo(game)


def test_undo_refuses_to_cross_a_reveal():
    """An enemy that became Known since the choice (even with no event saying so) blocks undo."""
    game = new_game(SCENARIO, seed=SEED, data=house_data())
    game.apply(game.legal()[0])
    enemy = next(c for c in game.state.characters.values() if c.side.value == "enemy" and not c.revealed)
    enemy.revealed = True
    with pytest.raises(history.UndoRefused, match="became Known"):
        history.undo(game)


def test_sandbox_undo_crosses_a_roll_and_marks_the_log(tmp_path):
    """In sandbox mode undo goes back past a roll; the header says sandbox and the log replays."""
    game = _play_to_news("d10 →")
    n = len(game.inputs)
    assert history.can_undo(game, sandbox=True)
    back = history.undo(game, sandbox=True)
    assert len(back.inputs) == n - 1
    back.play(make_policy("random", seed=3))
    out = history_branch.save_game(back, tmp_path / "sandbox.jsonl")
    header, _ = read_log(out)
    assert header.sandbox is True
    assert json.loads(out.read_text().splitlines()[0])["sandbox"] is True
    assert replay(out, data=house_data()).ok


# -- summary ----------------------------------------------------------------


def test_summary_hides_unknown_enemies_unless_spoilers(hist):
    """Unknown enemies are '?' in the summary; with spoilers their names and orders show."""
    game = hist.at(0)
    hidden = [
        c for c in game.state.characters.values() if history_view.is_hidden(game, c) and c.hex is not None
    ]
    assert hidden
    plain = history_view.summary_at(game)
    full = history_view.summary_at(game, spoilers=True)
    assert f"? ({game.state.teams[hidden[0].team].name}) at {hidden[0].hex}" in plain
    assert hidden[0].name not in plain
    assert hidden[0].name in full and "Unknown" in full


def test_summary_shows_turn_impulse_track_and_orders(hist):
    """The summary names the turn and Impulse, the Initiative Track and the orders given."""
    game = hist.at(hist.index_of((1, 1)))
    text = history_view.summary_at(game)
    assert text.startswith(f"Turn 1, Impulse {game.state.flow.impulse}")
    assert "Initiative Track:" in text and "Sneak" in text


# -- the command line -------------------------------------------------------


def test_inspect_to_prints_the_turn_and_impulse_reached(parent, hist, capsys):
    """`solo inspect LOG --to 2.1` prints the decision and the turn and Impulse reached."""
    assert main(["inspect", str(parent), "--to", "2.1"]) == 0
    out = capsys.readouterr().out
    p = hist.position(hist.index_of((2, 1)))
    assert f"decision #{p.index} of {hist.last}, turn {p.turn} impulse {p.impulse}" in out
    assert f"Turn {p.turn}, Impulse {p.impulse}" in out


def test_branch_command_writes_a_log_that_replays(parent, tmp_path, capsys):
    """`solo branch LOG@2.1 --out NEW --dice FILE` writes a branch log that `solo replay` accepts."""
    dice = tmp_path / "dice.yaml"
    dice.write_text("[0, 0, 0]\n")
    out = tmp_path / "new.jsonl"
    assert (
        main(["branch", f"{parent}@2.1", "--out", str(out), "--dice", str(dice), "--policy", "random"]) == 0
    )
    assert "written to" in capsys.readouterr().out
    header, _ = read_log(out)
    assert header.parent["path"] == str(parent) and header.forced[0]["dice"] == (0, 0, 0)
    assert main(["replay", str(out)]) == 0


@pytest.mark.parametrize(
    ("point", "message"),
    [
        ("3.x", "malformed point"),
        ("99.1", "past the end"),
        ("#100000", "past the end"),
        ("nomark", "no bookmark"),
    ],
)
def test_branch_bad_points_exit_2_with_nothing_written(parent, tmp_path, capsys, point, message):
    """A malformed point or one past the end of the log: exit 2, one line, no file written."""
    out = tmp_path / "never.jsonl"
    assert main(["branch", f"{parent}@{point}", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not out.exists()


def test_branch_from_another_data_version_exits_2(parent, tmp_path, capsys):
    """A parent log from another data version: exit 2, nothing written."""
    header, events = read_log(parent)
    other = tmp_path / "other.jsonl"
    write_log(other, attrs.evolve(header, data_version="0000000000000000"), events)
    out = tmp_path / "never.jsonl"
    assert main(["branch", f"{other}@2.1", "--out", str(out)]) == 2
    assert "data version" in capsys.readouterr().err
    assert not out.exists()


def test_inspect_malformed_point_exits_2(parent, capsys):
    """`solo inspect --to 2.9` is a malformed point: exit 2."""
    assert main(["inspect", str(parent), "--to", "2.9"]) == 2
    assert "malformed point" in capsys.readouterr().err


def test_bookmark_command_sets_and_lists(parent, tmp_path, capsys):
    """`solo bookmark LOG NAME POINT` stores the bookmark; `solo bookmark LOG` lists it."""
    copy = tmp_path / "copy.jsonl"
    copy.write_text(parent.read_text())
    assert main(["bookmark", str(copy), "contact", "2.1"]) == 0
    assert main(["bookmark", str(copy)]) == 0
    assert "contact: #" in capsys.readouterr().out
    assert read_log(copy)[0].bookmarks == {
        "contact": history.History.from_log(parent, data=house_data()).index_of((2, 1))
    }


def test_undo_past_the_branch_point_moves_it_back(hist):
    """Undoing (in sandbox mode) a parent's choice of a branch moves the branch point back with it."""
    k = hist.index_of((2, 1))
    game = hist.branch(k)
    back = history.undo(game, sandbox=True)
    parent = history_branch.header_of(back).parent
    assert parent["at_input"] == k - 1 == len(back.inputs)
    assert (parent["turn"], parent["impulse"]) == (back.pending.turn, back.pending.impulse)


_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,8}", fullmatch=True)


@given(
    st.dictionaries(_names, st.integers(0, 500), max_size=4),
    st.lists(
        st.fixed_dictionaries(
            {
                "at_input": st.integers(0, 500),
                "dice": st.lists(st.integers(0, 99), max_size=4).map(tuple),
                "cards": st.dictionaries(
                    st.sampled_from(["enemy", "friendly"]), st.lists(_names, max_size=3).map(tuple)
                ),
            }
        ),
        max_size=3,
    ),
    st.booleans(),
)
def test_header_lineage_round_trips_through_json(bookmarks, forced, sandbox):
    """Bookmarks, forced results, the sandbox mark and the parent survive the JSON header."""
    h = Header(
        "first_contact",
        1,
        "v",
        parent={"path": "p.jsonl", "data_version": "v", "at_input": 3, "turn": 1, "impulse": 2},
        forced=tuple(forced),
        sandbox=sandbox,
        bookmarks=bookmarks,
    )
    assert Header.from_dict(json.loads(json.dumps(h.to_dict()))) == h


def test_replay_to_prints_the_game_at_that_point(tmp_path, capsys):
    """`solo replay LOG --to T.I` rebuilds the game there and prints it; past the end is exit 2."""
    from solo.cli.main import main

    log = tmp_path / "g.jsonl"
    assert main(["run", "--seed", "3", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log), "--to", "2.1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    # The engine pauses only at decisions: the first one at or after turn 2, impulse 1.
    turn = int(first.split()[1].rstrip(","))
    assert first.startswith("Turn ") and turn >= 2
    assert main(["replay", str(log), "--to", "99.1"]) == 2


def test_a_log_whose_fire_asks_a_wound_card_mid_way_replays(tmp_path, capsys):
    """A fire that asks the player a wound card (Tough or Deadly, C2 24.1) mid-way writes its own
    line in front of its dice once it ends (base-rules §10): the replay compares the fire after
    the choice and matches (the_churchyard, seed 17, simple policy, has one)."""
    log = tmp_path / "g17.jsonl"
    assert main(["run", "the_churchyard", "--seed", "17", "--policy", "simple", "--log", str(log)]) == 0
    _header, events = read_log(log)
    asked = [i for i, e in enumerate(events) if e.kind == "choice" and "wound card" in e.text]
    assert any(any(events[j].kind == "fire" for j in range(i - 8, i)) for i in asked)
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    assert "replay matches" in capsys.readouterr().out
