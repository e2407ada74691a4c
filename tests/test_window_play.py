"""The window's small things that block a player: keys with a dialog open, quitting with unsaved
play, stable order keys, standing choices on Continue, autosave and "Continue the interrupted
game", human option labels, the cup draw's wording, the victory band in the summary."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import attrs
import pygame
import pytest
from conftest import house_data

from solo.core.decisions import Decision, DecisionKind, Option
from solo.core.dice import ChanceRequest
from solo.core.log import inputs_of, read_log
from solo.core.options import Options
from solo.playtest.play import new_game, summary
from solo.playtest.policies import SimplePolicy
from solo.playtest.standing import DuckBackChoice, StandingChoices
from solo.render import app as app_mod
from solo.render import theme
from solo.render.app import ChanceDialog, QuitRequested, Window, cup_title
from solo.render.autosave import autosave_file, interrupted_game
from solo.render.decision_panel import ORDER_DIGITS, number_keys
from solo.render.option_labels import OPTION_LABELS, option_line
from solo.render.session import load_session, new_session
from solo.render.start import StartScreen

SIZE = (1280, 800)


def key(k, mod=0, unicode=""):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode)


@pytest.fixture
def window():
    w = Window(new_session("first_contact", seed=1, data=house_data()), size=SIZE, resizable=False)
    w.step([])
    yield w
    w.close()


def play_some(w, n):
    """Answer ``n`` decisions with the simple policy through the window's controller."""
    g = w.controller.live
    policy = SimplePolicy()
    for _ in range(n):
        w.controller.answer(policy(g, g.pending))
        w.step([])


def test_order_number_keys_are_the_same_for_every_man():
    """Reload is the 0 key and Rally the 9 key whatever other orders a man has."""
    few = Decision(DecisionKind.GIVE_ORDER, "a", (Option("hide", "Hide"), Option("reload", "Reload")))
    many = Decision(
        DecisionKind.GIVE_ORDER,
        "b",
        tuple(Option(k, k) for k in ("hide", "sneak", "evade", "aimed_fire", "rally", "guard", "reload")),
    )
    for d in (few, many):
        keys = number_keys(d)
        assert keys[10] == "reload"
        assert keys[1] == "hide"
    assert number_keys(many)[9] == "rally"
    assert "guard" not in number_keys(many).values()  # Shift+G gives it
    assert len(set(ORDER_DIGITS.values())) <= 10


def test_standing_choices_survive_save_and_continue(window, tmp_path):
    """Duck Back "never", Carry on moving and Rules defaults come back with the loaded save."""
    ui = window.view.ui
    ui.standing = StandingChoices(duck_back=DuckBackChoice.NEVER, carry_on=True, rules_defaults=True)
    window.controller.save_path = tmp_path / "g.jsonl"
    assert window.controller.save() == tmp_path / "g.jsonl"
    header, _ = read_log(tmp_path / "g.jsonl")
    assert header.standing == {"duck_back": "never", "carry_on": True, "rules_defaults": True}
    w2 = Window(None, size=SIZE, resizable=False)
    try:
        w2.attach(load_session(tmp_path / "g.jsonl", data=house_data()))
        st = w2.view.ui.standing
        assert (st.duck_back, st.carry_on, st.rules_defaults) == (DuckBackChoice.NEVER, True, True)
    finally:
        w2.close()


def test_standing_choices_from_a_hand_edited_header_are_read_safely():
    """Unknown or mistyped settings fall back to "ask"."""
    st = StandingChoices.from_dict({"duck_back": "sometimes", "carry_on": "yes", "team_orders": [1, {}]})
    assert st == StandingChoices()
    assert StandingChoices.from_dict(None) == StandingChoices()


def test_quitting_with_unsaved_play_asks_first(window, tmp_path):
    """Ctrl+Q quits at once with nothing unsaved; after a decision it asks; Esc stays, Y quits."""
    ctl = window.controller
    play_some(window, 2)
    assert window.step([key(pygame.K_q, pygame.KMOD_CTRL)]) is True
    assert ctl.quit_guard.asking and ctl.running
    window.step([key(pygame.K_ESCAPE)])
    assert not ctl.quit_guard.asking and ctl.running
    window.step([pygame.event.Event(pygame.QUIT)])  # the close button asks too
    assert ctl.quit_guard.asking
    assert window.step([key(pygame.K_y)]) is False
    assert not ctl.running


def test_quit_question_s_saves_then_quits(window, tmp_path):
    """S answers "save, then quit": the log is written and the window closes."""
    ctl = window.controller
    ctl.save_path = tmp_path / "q.jsonl"
    play_some(window, 1)
    window.step([key(pygame.K_q, pygame.KMOD_CTRL)])
    assert window.step([key(pygame.K_s)]) is False
    assert inputs_of(read_log(tmp_path / "q.jsonl")[1]) == [i["choice"] for i in ctl.live.inputs]


def test_saved_game_quits_without_asking(window, tmp_path):
    ctl = window.controller
    ctl.save_path = tmp_path / "s.jsonl"
    play_some(window, 2)
    window.step([key(pygame.K_s, pygame.KMOD_CTRL)])
    assert window.step([key(pygame.K_q, pygame.KMOD_CTRL)]) is False


def test_keys_work_while_a_table_mode_dialog_is_open(window, tmp_path):
    """With a chance dialog open: Ctrl+S saves, Esc clears the typed text, Ctrl+Q asks, then quits."""
    dlg = window.dialog
    ctl = window.controller
    ctl.save_path = tmp_path / "d.jsonl"
    play_some(window, 1)
    pct = ChanceRequest("%D", "event table", tuple(range(100)))
    assert dlg.process(pct, [key(0, unicode="4")]) is None and dlg.typed == "4"
    assert dlg.process(pct, [key(pygame.K_s, pygame.KMOD_CTRL)]) is None
    assert (tmp_path / "d.jsonl").is_file() and ctl.quit_guard.unsaved(ctl.live) == 0
    assert dlg.process(pct, [key(pygame.K_ESCAPE)]) is None and dlg.typed == ""
    play_some(window, 1)
    assert dlg.process(pct, [key(pygame.K_q, pygame.KMOD_CTRL)]) is None
    assert ctl.quit_guard.asking
    assert dlg.process(pct, [key(pygame.K_4, unicode="4")]) is None  # the question takes the keys
    assert dlg.typed == ""
    with pytest.raises(QuitRequested):
        dlg.process(pct, [key(pygame.K_q, pygame.KMOD_CTRL)])


def test_autosave_after_each_decision_and_continue_after_a_kill(window):
    """The autosave follows each decision; left behind (a kill), the start screen offers it, and
    choosing it continues from the last decision, with saves going to the player's own file."""
    ctl = window.controller
    play_some(window, 3)
    path = autosave_file()
    _header, events = read_log(path)
    assert inputs_of(events) == [i["choice"] for i in ctl.live.inputs]
    play_some(window, 2)
    _, events = read_log(path)
    assert len(inputs_of(events)) == len(ctl.live.inputs)
    done = [i["choice"] for i in ctl.live.inputs]
    # a kill: nothing clears the autosave
    pygame.font.init()
    screen = StartScreen(house_data(), theme.Fonts(), recent=[])
    assert screen.interrupted is not None and screen.interrupted.decisions == len(done)
    spot = next(h for h in screen.hotspots(SIZE) if h.action == ("resume",))
    got = screen.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=spot.rect.center, button=1), SIZE)
    assert got is not None and got.load == str(path) and got.resumed == ""
    s = load_session(got.load, data=house_data())
    assert [i["choice"] for i in s.game.inputs] == done
    assert s.game.pending == ctl.live.pending


def test_play_continues_the_interrupted_game_from_the_start_screen(window, monkeypatch):
    """``solo play``'s start screen: C continues the autosave; Ctrl+S then writes the default save."""
    play_some(window, 4)
    done = [i["choice"] for i in window.controller.live.inputs]
    seen = []
    real = Window.attach
    monkeypatch.setattr(Window, "attach", lambda self, s: (seen.append((self, s)), real(self, s))[1])
    pygame.event.post(key(pygame.K_c, unicode="c"))
    assert app_mod.play(size=SIZE, max_frames=3) == 0
    w, s = seen[0]
    assert [i["choice"] for i in s.game.inputs] == done
    assert w.controller.save_path is None and s.source_log is None  # never saves over the autosave
    assert interrupted_game() is not None  # ended by max_frames, not by a quit: still kept


def test_a_quit_or_the_end_of_the_game_clears_the_autosave(window):
    play_some(window, 2)
    assert autosave_file().is_file()
    window.step([key(pygame.K_q, pygame.KMOD_CTRL)])
    window.step([key(pygame.K_y)])
    assert not autosave_file().is_file()
    w = Window(new_session("first_contact", seed=3, data=house_data()), size=SIZE, resizable=False)
    try:
        play_some(w, 1)
        assert autosave_file().is_file()
        g = w.controller.live
        g.play(SimplePolicy())
        w.step([])
        assert g.pending is None and not autosave_file().is_file()
    finally:
        w.close()


def test_every_house_option_has_a_human_label_and_rule():
    """No raw identifier on the start screen: every option has words and a rule number."""
    for field in attrs.fields(Options):
        lab = OPTION_LABELS[field.name]
        assert lab.label and lab.rule
    line = option_line("oba_model", "tq_minus_power", changed=False)
    assert "oba_model" not in line and "tq_minus_power" not in line and "Q22" in line
    assert option_line("night_los", 4, changed=True) == "Night LOS limit: 4 hexes (house: 5 hexes) · Q20, §15"


def test_cup_draw_is_worded_as_a_draw_from_the_cup():
    req = ChanceRequest("choice", "cup: Baker, the counter for 20.02 (19)", (1, 2, 3, 4, 5), ("a",) * 5)
    title = cup_title(req)
    assert title.startswith("Draw a counter from the cup for 20.02 (5 in the cup)")
    assert "die" not in title
    assert app_mod._title(req) == title
    assert ChanceDialog._labels_shown(req) is False


def test_end_summary_names_the_victory_band():
    g = new_game("first_contact", seed=1, data=house_data())
    g.play(SimplePolicy())
    band = next(ev.data["band"] for ev in g.events if ev.kind == "victory")
    assert f"band: {band}; winner: {g.state.winner}." in summary(g)


def test_every_window_key_is_in_the_notes():
    """The player's guide (docs/player.md) lists every key of KEYS_HELP with its words, Ctrl+Q included."""
    from pathlib import Path

    from solo.render.controller import KEYS_HELP

    notes = (Path(__file__).parent.parent / "docs" / "player.md").read_text(encoding="utf-8")
    for keys, words in KEYS_HELP:
        assert f"| {keys} | {words} |" in notes, keys
    assert any(k.startswith("Ctrl+Q") for k, _ in KEYS_HELP)


def test_no_window_opens_the_sound_system(monkeypatch, tmp_path):
    """The game window and both editors start without pygame.init() or the mixer (no ALSA noise)."""
    from solo.data.map_draft import new_draft
    from solo.data.scenario_draft import ScenarioDraft
    from solo.render.map_editor import run_editor
    from solo.render.scenario_editor import run_scenario_editor

    def boom(*_a, **_k):
        raise AssertionError("the sound system was opened")

    monkeypatch.setattr(pygame, "init", boom)
    monkeypatch.setattr(pygame.mixer, "init", boom)
    assert run_editor(new_draft(6, 5), tmp_path / "m.yaml", size=SIZE, max_frames=2) == 0
    draft = ScenarioDraft.new("town", "s", "S")
    assert run_scenario_editor(draft, tmp_path / "s.yaml", house_data(), size=SIZE, max_frames=2) == 0
    w = Window(new_session("first_contact", seed=1, data=house_data()), size=SIZE, resizable=False)
    w.step([])
    w.close()
    assert not pygame.mixer.get_init()


def test_ctrl_q_quits_the_start_screen():
    w = Window(None, size=SIZE, resizable=False)
    try:
        pygame.event.post(key(pygame.K_q, pygame.KMOD_CTRL))
        pygame.event.post(key(pygame.K_RETURN))  # would start a game had Ctrl+Q been ignored
        assert w.start(house_data(), max_frames=50) is None
    finally:
        w.close()


def test_order_buttons_come_in_the_order_of_their_keys(window):
    """An order decision's buttons: 1 Hide first, then by key, the orders without a number last."""
    ctl = window.controller
    g = ctl.live
    ctl.answer(g.pending.keys[0])  # play a card: the first order is asked
    assert g.pending.kind is DecisionKind.GIVE_ORDER
    nums = [b.number for b in window.view.decision_layout().buttons]
    numbered = [n for n in nums if n is not None]
    assert numbered == sorted(numbered) and numbered[0] == 1
    assert nums[: len(numbered)] == numbered  # no unnumbered order before a numbered one


def test_a_table_mode_game_autosaves_and_continues_in_table_mode():
    """Table mode: the autosave holds the player's results; the offer says table mode, and the
    game rebuilt from it asks the player again only after the recorded results."""
    asked = []

    def player(req):
        asked.append(req.kind)
        return "ok" if req.kind == "shuffle" else req.legal[len(asked) % len(req.legal)]

    w = Window(
        new_session("first_contact", seed=1, data=house_data(), table=player), size=SIZE, resizable=False
    )
    try:
        play_some(w, 6)
        done = [i["choice"] for i in w.controller.live.inputs]
    finally:
        w.close()
    offer = interrupted_game()
    assert offer is not None and offer.table and offer.decisions == len(done)
    assert app_mod._is_table_save(str(offer.path))
    n = len(asked)
    again = load_session(offer.path, data=house_data(), table=player)
    assert [i["choice"] for i in again.game.inputs] == done
    assert len(asked) == n  # every result so far came from the autosave


def test_continue_after_a_save_writes_to_that_save_again(window, tmp_path, monkeypatch):
    """Saved with Ctrl+S, played on, killed: the interrupted game's Ctrl+S goes to the same file."""
    window.controller.save_path = tmp_path / "mine.jsonl"
    play_some(window, 2)
    window.step([key(pygame.K_s, pygame.KMOD_CTRL)])
    play_some(window, 2)
    mine_before = (tmp_path / "mine.jsonl").read_text(encoding="utf-8")
    offer = interrupted_game()
    assert offer is not None and offer.save_path == str(tmp_path / "mine.jsonl")
    seen = []
    real = Window.attach
    monkeypatch.setattr(Window, "attach", lambda self, s: (seen.append(self), real(self, s))[1])
    pygame.event.post(key(pygame.K_c, unicode="c"))
    assert app_mod.play(size=SIZE, max_frames=3) == 0
    assert seen[0].controller.save_path == tmp_path / "mine.jsonl"
    assert (tmp_path / "mine.jsonl").read_text(encoding="utf-8") == mine_before  # untouched until saved


def test_opening_a_finished_save_keeps_another_games_autosave(window, tmp_path):
    """A window showing a finished game, quit at once, leaves the interrupted game's autosave."""
    play_some(window, 2)
    kept = autosave_file().read_text(encoding="utf-8")
    g = new_game("first_contact", seed=5, data=house_data())
    g.play(SimplePolicy())
    s = new_session("first_contact", seed=5, data=house_data())
    s.game = g
    s.save(tmp_path / "done.jsonl")
    w2 = Window(load_session(tmp_path / "done.jsonl", data=house_data()), size=SIZE, resizable=False)
    try:
        w2.step([])
        assert w2.step([key(pygame.K_q, pygame.KMOD_CTRL)]) is False
    finally:
        w2.close()
    assert autosave_file().read_text(encoding="utf-8") == kept
