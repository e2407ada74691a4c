"""The Enemy's turn on stage (solo.render.stage): pace never changes play, Step shows one Enemy
step at a time, the pace and standing choices survive save -> Continue, the Enemy panel keeps
the turn's cards. The window is driven headless with a fake clock (no wall-clock assertion)."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame
import pytest
from conftest import FakeClock, house_data

from solo.core.events import Event
from solo.core.log import read_log
from solo.playtest.policies import SimplePolicy
from solo.playtest.standing import DuckBackChoice
from solo.render import stage_draw, theme
from solo.render.app import Window
from solo.render.session import load_session, new_session
from solo.render.stage import HEX_SECONDS, Pace, Stage, beats_of
from solo.render.stage_view import staged_game
from solo.render.start import StartScreen

SIZE = (1600, 1000)


def window(pace: Pace, seed: int = 1) -> tuple[Window, FakeClock]:
    w = Window(new_session("the_churchyard", seed=seed, data=house_data()), size=SIZE, resizable=False)
    clock = FakeClock()
    w.controller.clock = clock
    w.view.now = clock
    w.view.stage.set_pace(pace)
    w.step([])
    return w, clock


def press(w: Window, key: int, mod: int = 0) -> None:
    w.step([pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="")])


def play_turns(w: Window, clock: FakeClock, turns: int, *, on_beat=None) -> int:
    """Answer with the simple policy until ``turns`` turns are played; Space / the clock move the
    stage on. Returns how many Enemy steps were shown."""
    g = w.controller.live
    policy = SimplePolicy()
    shown = 0
    for _ in range(20000):
        if g.pending is None or g.state.flow.turn > turns:
            break
        stage = w.view.stage
        if stage.busy:
            shown += 1
            if on_beat is not None:
                on_beat(stage)
            if stage.pace is Pace.TIMED:
                clock.t += stage.seconds
                w.step([])
            else:
                press(w, pygame.K_SPACE)
            continue
        assert w.controller.answer(policy(g, g.pending))
    return shown


def log_lines_of(w: Window, path) -> list[str]:
    w.controller.save_path = path
    w.controller.save()
    return path.read_text(encoding="utf-8").splitlines()


def test_pace_never_changes_the_log(tmp_path):
    """The same seed played at Instant, Step and Timed gives the same log, byte for byte (the
    header's window settings aside, which no replay reads)."""
    logs = {}
    counts = {}
    for pace in Pace:
        w, clock = window(pace)
        try:
            counts[pace] = play_turns(w, clock, 3)
            lines = log_lines_of(w, tmp_path / f"{pace.value}.jsonl")
        finally:
            w.close()
        header, _ = read_log(tmp_path / f"{pace.value}.jsonl")
        assert header.window["pace"] == pace.value
        logs[pace] = lines[1:]  # the events
    assert counts[Pace.INSTANT] == 0
    assert counts[Pace.STEP] > 20 and counts[Pace.TIMED] == counts[Pace.STEP]
    assert logs[Pace.STEP] == logs[Pace.INSTANT]
    assert logs[Pace.TIMED] == logs[Pace.INSTANT]


def test_step_pace_shows_enemy_actions_one_at_a_time():
    """At Step pace each Space shows the next Enemy step; the decision waits until the last."""
    w, clock = window(Pace.STEP)
    try:
        g = w.controller.live
        policy = SimplePolicy()
        while not w.view.stage.busy:  # the Friendly phases of turn 1, then the Enemy plays
            assert w.controller.answer(policy(g, g.pending))
        stage = w.view.stage
        pending = g.pending
        seen: list[int] = []
        while stage.busy:
            beat = stage.shown
            assert beat is not None and beat.side == "enemy" and beat.waits
            assert not seen or beat.first_seq > seen[-1]  # in order, each once
            seen.append(beat.last_seq)
            shown = w.view.shown_game()
            assert shown is not g and shown.pending is None  # the decision is not shown yet
            assert len(shown.events) == beat.last_seq + 1  # nor the events after the step
            held = len(stage.queue)
            # a digit or Enter would answer the decision: while the Enemy plays they do not
            press(w, pygame.K_1)
            assert g.pending is pending and stage.shown is beat
            press(w, pygame.K_SPACE)
            assert len(stage.queue) < held or not stage.busy
        assert len(seen) >= 2
        assert w.view.shown_game() is g and g.pending is pending  # done: the decision is back
        n = len(g.inputs)
        press(w, pygame.K_SPACE)  # pressed once too often, at once: it answers nothing
        press(w, pygame.K_RETURN)
        assert len(g.inputs) == n and g.pending is pending
        clock.t += 1.0
        press(w, pygame.K_RETURN)  # later, Enter answers again
        assert len(g.inputs) == n + 1
    finally:
        w.close()


def test_esc_shows_the_rest_of_the_impulse_and_moves_walk_their_path():
    """Esc passes the Impulse on stage; a mover stands on each hex of his path in turn."""
    w, clock = window(Pace.STEP)
    try:
        walked: list[tuple[str, list[str], list[str]]] = []

        def on_beat(stage: Stage) -> None:
            for cid, path in stage.shown.moves():
                hexes = []
                for k in range(len(path)):
                    hexes.append(stage.walked(stage.shown_at + k * HEX_SECONDS + 0.01)[cid])
                staged = staged_game(w.controller.live, stage, stage.shown_at)
                walked.append((cid, path, hexes))
                assert str(staged.state.characters[cid].hex) == path[0]

        play_turns(w, clock, 2, on_beat=on_beat)
        assert walked
        for _cid, path, hexes in walked:
            assert hexes == path or hexes[: len(path)] == path[: len(hexes)]
        # Esc: the rest of the Impulse goes at once, the next step shown is of a later Impulse
        g = w.controller.live
        policy = SimplePolicy()
        stage = w.view.stage
        for _ in range(5000):
            if stage.busy and stage.shown.impulse and stage.queue:
                here = (stage.shown.turn, stage.shown.impulse)
                same = sum(1 for b in stage.queue if b.waits and (b.turn, b.impulse) == here)
                if same:
                    break
                press(w, pygame.K_SPACE)
            elif stage.busy:
                press(w, pygame.K_SPACE)
            else:
                w.controller.answer(policy(g, g.pending))
        here = (stage.shown.turn, stage.shown.impulse)
        press(w, pygame.K_ESCAPE)
        assert not stage.busy or (stage.shown.turn, stage.shown.impulse) != here
    finally:
        w.close()


def test_pace_and_standing_choices_survive_save_and_continue(tmp_path):
    """P, [ ] and D/M/G set in the game are in the save's window settings, and Continue restores them."""
    w, clock = window(Pace.INSTANT)
    try:
        press(w, pygame.K_p)
        press(w, pygame.K_p)  # instant -> step -> timed
        assert w.view.stage.pace is Pace.TIMED
        press(w, pygame.K_RIGHTBRACKET)  # slower: 1.25 s
        press(w, pygame.K_d)
        press(w, pygame.K_d)  # ask -> never -> if fired on
        press(w, pygame.K_m)
        press(w, pygame.K_g)
        play_turns(w, clock, 1)
        w.controller.save_path = tmp_path / "s.jsonl"
        press(w, pygame.K_s, pygame.KMOD_CTRL)
        n_inputs = len(w.controller.live.inputs)
    finally:
        w.close()
    header, _ = read_log(tmp_path / "s.jsonl")
    assert header.window == {"pace": "timed", "pace_seconds": 1.25}
    assert {k: header.standing[k] for k in ("duck_back", "carry_on", "rules_defaults")} == {
        "duck_back": "when_hurt",
        "carry_on": True,
        "rules_defaults": True,
    }
    session = load_session(tmp_path / "s.jsonl")
    assert len(session.game.inputs) == n_inputs
    w2 = Window(None, size=SIZE, resizable=False)
    try:
        assert w2.view.stage.pace is Pace.INSTANT
        w2.attach(session)
        assert w2.view.stage.pace is Pace.TIMED and w2.view.stage.seconds == 1.25
        st = w2.view.ui.standing
        assert st.duck_back is DuckBackChoice.WHEN_HURT and st.carry_on and st.rules_defaults
        assert not w2.view.stage.busy  # the saved game's past is not played again
    finally:
        w2.close()


def test_a_save_without_window_settings_keeps_the_header_as_it_was(tmp_path):
    """Logs written by other tools have no ``window`` key: their header bytes do not change."""
    s = new_session("first_contact", seed=1, data=house_data())
    s.save(tmp_path / "a.jsonl")
    first = (tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()[0]
    assert '"window":' not in first
    assert read_log(tmp_path / "a.jsonl")[0].window == {}


def test_the_panel_keeps_the_turns_cards_after_the_phase():
    """After the Enemy Order Phase (state's cards cleared at the turn's end), the panel still lists
    every card of the turn, with what it gave, until the next Order Phase; a click explains one."""
    w, clock = window(Pace.INSTANT)
    try:
        g = w.controller.live
        play_turns(w, clock, 2)  # now in turn 3, the Friendly phases: the turn-3 cards are not drawn
        fog = w.view.fog()
        entries = stage_draw.enemy_panel_entries(g, fog)
        assert g.state.flow.turn == 3 and g.state.flow.impulse == 0
        assert not any(k.startswith("team:") for k in g.state.cards.enemy_this_turn)
        orders = [e for e in g.events if e.kind in ("enemy_order", "initiative")]
        assert entries and {g.events[x.seq].turn for x in entries} == {orders[-1].turn}
        assert len(entries) == sum(1 for e in orders if e.turn == orders[-1].turn)
        assert any("initiative" in x.text for x in entries)
        # a click on a card shows its explanation (row, column, order, rules)
        chips = stage_draw.enemy_panel_layout(w.view.layout.enemy_cards, g, fog)
        rect, entry = next((r, e) for r, e in chips if g.events[e.seq].kind == "enemy_order")
        w.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1)])
        w.step([pygame.event.Event(pygame.MOUSEBUTTONUP, pos=rect.center, button=1)])
        assert w.view.explain == entry.seq
        lines = stage_draw.explanation_lines(g, entry.seq, fog)
        ev = g.events[entry.seq]
        assert any(f"card {ev.data['card']}" in ln for ln in lines)
        assert any(ln.startswith("Row ") and str(ev.data["column"]) in ln for ln in lines)
        assert any(ln.startswith("Rules: ") for ln in lines)
        press(w, pygame.K_ESCAPE)
        assert w.view.explain is None
    finally:
        w.close()


def ev(seq: int, kind: str, actor: str | None, **kw) -> Event:
    return Event(seq, kind, 2, kw.pop("impulse", 1), kw.pop("text", kind), actor=actor, data=kw)


def test_beats_keep_effects_with_their_cause_and_rolls_with_their_reader():
    """A fire's rolls, the target's wound and Duck Back stay in the firer's step, whatever their
    order; a choice ends a step; a Friendly step never waits."""
    side = {"red_1": "enemy", "able_1": "friendly"}.get
    events = [
        ev(0, "fire_target", "red_1"),
        ev(1, "roll", None),
        ev(2, "wound_draw", "able_1"),
        ev(3, "wound", "able_1"),
        ev(4, "duck_back", "able_1"),
        ev(5, "fire", "red_1"),
        ev(6, "roll", None),
        ev(7, "move", "able_1", path=["01.01", "01.02"]),
        Event(8, "choice", 2, 1, "c", automatic=False),
        ev(9, "move", "red_1", path=["02.02", "02.03", "02.04"]),
    ]
    beats = beats_of(events, lambda a: side(a) or "")
    assert [b.kinds for b in beats] == [
        ("fire_target", "roll", "wound_draw", "wound", "duck_back", "fire"),
        ("roll", "move"),
        ("move",),
    ]
    assert [b.waits for b in beats] == [True, False, True]
    assert beats[2].moves() == [("red_1", ["02.02", "02.03", "02.04"])]


def test_timed_pace_waits_its_seconds_on_the_fake_clock():
    """Timed: a step stays until its seconds have passed, then the next comes (a fake clock)."""
    side = {"red_1": "enemy", "red_2": "enemy"}.get
    events = [ev(0, "move", "red_1", path=["01.01", "01.02"]), ev(1, "no_fire", "red_2")]
    stage = Stage(Pace.TIMED, seconds=0.5)
    stage.feed(events, lambda a: side(a) or "", now=10.0)
    assert stage.shown is not None and stage.shown.actor == "red_1"
    stage.tick(10.49)
    assert stage.shown.actor == "red_1"
    stage.tick(10.5)
    assert stage.shown.actor == "red_2"
    assert stage.adjust(faster=True) == 0.25 and stage.adjust(faster=True) == 0.25
    assert stage.adjust(faster=False) == 0.5
    stage.set_pace(Pace.INSTANT)
    assert not stage.busy


def test_start_screen_sets_the_pace():
    """P on the start screen cycles the pace; the choice carries it (Instant by default)."""
    pygame.font.init()
    screen = StartScreen(house_data(), theme.Fonts(), recent=[])
    assert screen.choice().pace == "instant"
    screen.key(pygame.K_p, "p")
    assert screen.choice().pace == "step"
    spot = next(h for h in screen.hotspots(SIZE) if h.action == ("pace",))
    screen.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=spot.rect.center, button=1), SIZE)
    assert screen.choice().pace == "timed"


@pytest.mark.parametrize("pace", [Pace.STEP])
def test_the_window_draws_a_step_with_its_fire_line(pace):
    """Drawn mid-turn at Step pace: the panel shows the step and the map its fire line."""
    w, clock = window(pace)
    try:
        found = []

        def on_beat(stage: Stage) -> None:
            if not found and "fire" in stage.shown.kinds:
                w.draw()
                found.append(stage.shown)
                fire = stage.shown.first("fire")
                assert stage_draw.fire_caption(fire).startswith("WS ")
                assert "dice" in stage_draw.fire_caption(fire)
                # the stage panel is drawn with the ACTIVE edge at the decision panel's place
                d = w.view.layout.decision
                assert tuple(w.surface.get_at((d.x + 1, d.centery)))[:3] == theme.ACTIVE

        play_turns(w, clock, 4, on_beat=on_beat)
        assert found
    finally:
        w.close()


def test_a_vehicle_walks_its_steps_and_turns():
    """A vehicle's move on stage: its start hex, then each step's hex and facing, one per HEX_SECONDS."""
    data = {
        "vehicle": "panzer",
        "start": "15.03",
        "steps": [
            {"facing": 5, "hex": "15.03", "kind": "turn"},
            {"facing": 5, "hex": "14.04", "kind": "move"},
        ],
    }
    events = [ev(0, "vehicle_move", "panzer_driver", **data)]
    stage = Stage(Pace.STEP)
    stage.feed(events, lambda a: "enemy", now=0.0)
    assert stage.shown is not None
    assert stage.walked_vehicles(0.0) == {"panzer": ("15.03", None)}
    assert stage.walked_vehicles(HEX_SECONDS + 0.01) == {"panzer": ("15.03", 5)}
    assert stage.walked_vehicles(2 * HEX_SECONDS + 0.01) == {"panzer": ("14.04", 5)}
    assert stage.animating(0.0) and not stage.animating(10.0)


def test_effects_told_before_their_cause_go_to_the_firers_step():
    """A log that tells the wound before the fire (older narration): the wound still opens the
    firer's step, not the step before it; told after it, it stays there too."""
    side = {"red_4": "enemy", "red_1": "enemy", "able_1": "friendly"}.get
    before = [
        ev(0, "no_fire", "red_4"),
        ev(1, "roll", None),
        ev(2, "wound_draw", "red_1", target="red_1"),
        ev(3, "wound", "red_1", character="red_1"),
        ev(4, "fire", "able_1"),
    ]
    beats = beats_of(before, lambda a: side(a) or "")
    assert [(b.actor, b.kinds) for b in beats] == [
        ("red_4", ("no_fire",)),
        ("able_1", ("roll", "wound_draw", "wound", "fire")),
    ]
    assert [b.waits for b in beats] == [True, False]
    after = [before[0], before[1], before[4], before[2], before[3]]
    assert [(b.actor, b.kinds) for b in beats_of(after, lambda a: side(a) or "")] == [
        ("red_4", ("no_fire",)),
        ("able_1", ("roll", "fire", "wound_draw", "wound")),
    ]
