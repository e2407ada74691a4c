"""The engine API, the log and replay, the policies, and a short soak (base-rules §1; DESIGN.md)."""

import json
import os
import subprocess
import sys

import pytest
from conftest import house_data, make_game

from solo.core.errors import IllegalChoiceError, MalformedChoiceError
from solo.core.log import Header, LogError, read_log, write_log
from solo.data.scenario import shipped_scenarios
from solo.engine.game import Decision, DecisionKind, Option
from solo.playtest.invariants import check_state, watch
from solo.playtest.play import header_for, new_game, replay, summary
from solo.playtest.policies import RandomPolicy, ScriptedPolicy, SimplePolicy
from solo.rules.state import Side, Status

SOLO = os.path.join(os.path.dirname(sys.executable), "solo")


def test_first_decision_is_playing_a_card(tmp_path):
    """Step 1 d): the game stops first to have the player play a card from his hand (5.0)."""
    g = make_game(tmp_path)
    assert g.pending.kind is DecisionKind.PLAY_CARD
    assert set(g.legal()) == set(g.state.cards.hand)


def test_an_illegal_choice_raises_and_changes_nothing(tmp_path):
    """A key outside the options raises IllegalChoiceError naming the options; state and events unchanged."""
    g = make_game(tmp_path)
    before = (len(g.events), list(g.state.cards.hand), g.pending)
    with pytest.raises(IllegalChoiceError) as info:
        g.apply("no-such-card")
    assert "play_card" in str(info.value)
    with pytest.raises(MalformedChoiceError):
        g.apply(3)
    assert (len(g.events), list(g.state.cards.hand), g.pending) == before


def test_a_decision_keeps_its_pairs_and_shows_them_as_options(tmp_path):
    """GameContext.decision keeps the (key, label) pairs as given; options wraps them in Option, in order."""
    g = make_game(tmp_path)
    pairs = [("t1", "Baker in 10.4"), ("hold", "Hold fire")]
    d = g.decision(DecisionKind.FIRE_TARGET, "fire at", pairs, actor="a")
    assert d.keys == ("t1", "hold")
    assert d.options == (Option("t1", "Baker in 10.4"), Option("hold", "Hold fire"))
    assert [type(o) for o in d.options] == [Option, Option] and d.options[1].label == "Hold fire"
    assert d == Decision(DecisionKind.FIRE_TARGET, "fire at", d.options, "a", d.turn, d.impulse)
    assert (d.turn, d.impulse) == (g.state.flow.turn, g.state.flow.impulse)
    with pytest.raises(RuntimeError, match="no legal option"):
        g.decision(DecisionKind.FIRE_TARGET, "fire at", [])


def test_playing_a_card_sets_friendly_initiatives(tmp_path):
    """5.0 d): the played card's three values become Able, Baker and Charlie's initiatives."""
    g = make_game(tmp_path)
    key = g.legal()[0]
    card = house_data().friendly_deck.card(key)
    g.apply(key)
    if card.initiatives is not None:
        assert g.state.teams["able"].initiative == card.initiatives.able
        assert g.state.teams["baker"].initiative == card.initiatives.baker


def test_the_track_is_in_initiative_order(tmp_path):
    """Step 3 c): the Initiative Track lists teams lowest initiative first (base-rules §2)."""
    g = make_game(tmp_path, seed=11)
    watch(g)
    g.play(SimplePolicy())
    tracks = [e.data["track"] for e in g.events if e.kind == "track"]
    assert tracks
    for t in tracks:
        assert [v for _team, v in t] == sorted(v for _team, v in t)


def test_same_seed_same_game_and_other_seed_differs(tmp_path):
    """Determinism: the same seed and policy give the same events; another seed differs."""
    runs = []
    for seed in (5, 5, 6):
        g = make_game(tmp_path, seed=seed)
        g.play(RandomPolicy(seed))
        runs.append([(e.kind, e.text) for e in g.events])
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_the_game_ends_when_the_man_last_found_alive_falls(tmp_path):
    """Step 5 f): the end check asks each side's last man found alive first; when he and every other
    real man of a side are gone (dummies do not count) the game is over."""
    g = make_game(tmp_path, "the_churchyard")
    assert not g._check_end()
    real = [c for c in g.state.active(Side.ENEMY) if not c.dummy]
    assert len(real) >= 2 and any(c.dummy for c in g.state.active(Side.ENEMY))
    for c in real[:-1]:  # the man found first falls: the check finds the next one
        c.status = Status.DEAD
        assert not g._check_end() and not g.state.over
    real[-1].hex = None  # the last real one leaves the map: only dummies are left
    real[-1].status = Status.EXITED
    assert g._check_end() and g.state.over
    assert g.events[-1].kind == "game_over" and "enemy" in g.events[-1].text


def test_a_game_that_keeps_no_events_hands_its_listeners_the_same_events():
    """keep_events=False: a listener with ``kinds`` gets exactly those events, one without gets all,
    numbered as in the same game kept (DESIGN.md, events)."""

    class Some:
        kinds = ("impulse", "spot")

        def __init__(self):
            self.seen = []

        def __call__(self, ev):
            self.seen.append((ev.seq, ev.kind, ev.turn, ev.impulse, ev.data))

    kept = new_game("the_churchyard", seed=4, turns=2)
    kept.play(SimplePolicy())
    batch = new_game("the_churchyard", seed=4, turns=2, keep_events=False)
    some, every = Some(), []
    batch.listeners.extend([some, lambda ev: every.append(ev.seq)])
    batch.play(SimplePolicy())
    assert batch.events == []
    first = every[0]  # the listeners were added after set-up
    assert every == [e.seq for e in kept.events if e.seq >= first]
    want = [(e.seq, e.kind, e.turn, e.impulse, e.data) for e in kept.events if e.kind in Some.kinds]
    assert some.seen == want and any(k == "spot" for _s, k, *_ in want)
    quiet = new_game("the_churchyard", seed=4, turns=2, keep_events=False)
    quiet.listeners.append(Some())
    quiet.play(SimplePolicy())
    assert quiet._seq == kept._seq  # events not built still take their numbers


def test_log_round_trip_and_replay_matches(tmp_path):
    """A written log reads back and replays event by event."""
    g = new_game("first_contact", seed=8, data=house_data())
    g.play(RandomPolicy(8))
    path = tmp_path / "g.jsonl"
    write_log(path, header_for(g, "first_contact", 8, policy="random"), g.events)
    header, events = read_log(path)
    assert header.seed == 8 and len(events) == len(g.events)
    result = replay(path, data=house_data())
    assert result.ok, result.mismatch


def test_replay_detects_a_changed_event(tmp_path):
    """A log whose derived events were edited does not replay."""
    g = new_game("first_contact", seed=9, data=house_data())
    g.play(SimplePolicy())
    path = tmp_path / "g.jsonl"
    write_log(path, header_for(g, "first_contact", 9), g.events)
    lines = path.read_text().splitlines()
    ev = json.loads(lines[5])
    ev["text"] = "something else"
    lines[5] = json.dumps(ev)
    path.write_text("\n".join(lines) + "\n")
    assert not replay(path, data=house_data()).ok


def test_replay_refuses_another_data_version(tmp_path):
    """A log from another data version is refused with a clear message, not replayed."""
    path = tmp_path / "g.jsonl"
    write_log(path, Header("first_contact", 1, "0000000000000000"), [])
    with pytest.raises(LogError, match="data version"):
        replay(path, data=house_data())


def test_bad_log_lines_name_the_line(tmp_path):
    """A malformed log line is reported as path:line."""
    path = tmp_path / "g.jsonl"
    path.write_text(
        '{"format": "solo-log", "version": 1, "scenario": "first_contact", "seed": 1, "data_version": "y"}\n'
        '{oops\n{"seq": 1}\n'
    )
    with pytest.raises(LogError, match=r"g.jsonl:2:"):
        read_log(path)


def test_write_log_is_atomic_and_keeps_the_old_file_on_error(tmp_path):
    """A failed write leaves the previous save intact and no temporary file behind."""
    path = tmp_path / "g.jsonl"
    write_log(path, Header("first_contact", 1, "v"), [])
    before = path.read_text()

    class Boom:
        def to_dict(self):
            raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_log(path, Header("first_contact", 2, "v"), [Boom()])
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]


def test_replay_is_identical_under_another_pythonhashseed(tmp_path):
    """A log written in one process replays in another with a different PYTHONHASHSEED."""
    path = tmp_path / "g.jsonl"
    env = dict(os.environ, PYTHONHASHSEED="123")
    subprocess.run(
        [SOLO, "run", "--seed", "4", "--policy", "random", "--log", str(path)],
        check=True,
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    env["PYTHONHASHSEED"] = "987"
    proc = subprocess.run(
        [SOLO, "replay", str(path)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert "matches" in proc.stdout


def test_scripted_policy_follows_its_script(tmp_path):
    """The scripted policy plays the listed choice at its turn, then falls back."""
    g = make_game(tmp_path, seed=2)
    card = g.legal()[-1]
    script = tmp_path / "s.yaml"
    script.write_text(f"choices:\n  - {{turn: 1, decision: play_card, choice: {card}}}\nfallback: simple\n")
    g.play(ScriptedPolicy(script))
    first = next(e for e in g.events if e.kind == "choice")
    assert first.data["choice"] == card


def test_scripted_policy_rejects_an_unknown_decision_with_its_line(tmp_path):
    """A script naming an unknown decision kind is a DataError with its line."""
    from solo.core.errors import DataError

    script = tmp_path / "s.yaml"
    script.write_text("choices:\n  - {turn: 1, decision: dance, choice: x}\n")
    with pytest.raises(DataError, match=r"s.yaml:2:"):
        ScriptedPolicy(script)


@pytest.mark.parametrize("policy", ["random", "simple", "tactical"])
def test_short_soak_every_shipped_scenario(policy):
    """Every shipped scenario plays to its end for a few seeds with invariants checked throughout."""
    from solo.playtest.policies import make_policy

    for path in shipped_scenarios():
        for seed in (1, 2, 3):
            g = new_game(path.stem, seed=seed, data=house_data())
            watch(g)
            g.play(make_policy(policy, seed=seed))
            check_state(g)
            assert g.over
            assert "turn(s) played" in summary(g)
