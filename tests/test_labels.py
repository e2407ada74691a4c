"""No label is cut at 1280x800 or 1600x1000: each screen is drawn with the registry of cut labels
on (solo.render.theme.Fonts.cuts: every text that Fonts.fit shortened with an ellipsis, or that
Fonts.wrap broke inside a word, measured with the font in use against its rectangle)."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

from pathlib import Path

import pygame
import pytest
from conftest import house_data

from solo.core.dice import ChanceRequest
from solo.data.map_draft import load_draft
from solo.data.maps import shipped_maps
from solo.data.scenario import shipped_scenarios
from solo.data.scenario_draft import ScenarioDraft
from solo.playtest.play import new_game
from solo.playtest.policies import SimplePolicy
from solo.render import theme
from solo.render.app import Window
from solo.render.autosave import Interrupted
from solo.render.counter_marks import counter_name_forms
from solo.render.frame import GameView
from solo.render.map_editor import MapEditor
from solo.render.scenario_editor import READABLE_SCALE, ScenarioEditor
from solo.render.session import new_session
from solo.render.start import StartScreen

SIZES = [(1280, 800), (1600, 1000)]


@pytest.fixture(scope="module", autouse=True)
def _display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1600, 1000))
    yield
    pygame.display.quit()


def played(scenario, n, seed=1):
    g = new_game(scenario, seed=seed, data=house_data())
    policy = SimplePolicy()
    for _ in range(n):
        if g.pending is None:
            break
        g.apply(policy(g, g.pending))
    return g


def game_states():
    """The play window in a few states: a first decision, mid-game, vehicles shown, game over."""
    over = new_game("first_contact", seed=1, data=house_data())
    over.play(SimplePolicy())
    return [
        ("first decision", played("first_contact", 0), {}),
        ("mid-game", played("first_contact", 40), {"fog": False}),
        ("vehicles", played("armour_in_the_rain", 30), {"show_vehicles": True}),
        ("panzer", played("the_panzer_below_the_abbey", 25), {"show_vehicles": True}),
        ("game over", over, {}),
    ]


def cuts_of(fonts, draw):
    fonts.cuts = []
    draw()
    got = [f"{text!r} shown as {shown!r} in {w}px" for text, shown, w in fonts.cuts]
    fonts.cuts = None
    return got


@pytest.mark.parametrize("size", SIZES)
def test_play_window_labels_are_not_cut(size):
    for name, game, ui in game_states():
        view = GameView(game, size)
        for k, v in ui.items():
            setattr(view.ui, k, v)
        surface = pygame.Surface(size)
        assert cuts_of(view.fonts, lambda v=view, s=surface: v.draw(s)) == [], (name, size)


@pytest.mark.parametrize("size", SIZES)
def test_review_toolbar_and_dialogs_are_not_cut(size):
    w = Window(new_session("first_contact", seed=1, data=house_data()), size=size, resizable=False)
    try:
        w.step([])
        ctl = w.controller
        policy = SimplePolicy()
        for _ in range(6):
            ctl.answer(policy(ctl.live, ctl.live.pending))
        fonts = w.view.fonts
        assert ctl.enter_review()
        assert cuts_of(fonts, w.draw) == [], "review"
        ctl.leave_review()
        card = ChanceRequest("card", "Enemy Order card for Red", ("e01", "e02", "e03"), deck="enemy")
        cup = ChanceRequest("choice", "cup: Red, the counter for 20.02 (19)", (1, 2, 3, 4, 5), ("x",) * 5)
        d10 = ChanceRequest("d10", "spot: Sch. Ziegler → Pvt Diaz", tuple(range(10)))
        for req in (card, cup, d10):
            assert cuts_of(fonts, lambda r=req: w.dialog.draw(w.surface, r)) == [], req.kind
        ctl.request_quit()
        assert ctl.quit_guard.asking
        assert cuts_of(fonts, w.draw) == [], "quit question"
    finally:
        w.close()


@pytest.mark.parametrize("size", SIZES)
def test_start_screen_labels_are_not_cut(size, tmp_path):
    saves = []
    for i in range(3):
        p = tmp_path / f"solo-first_contact-seed{i}.jsonl"
        p.write_text("{}")
        saves.append(p)
    fonts = theme.Fonts()
    away = Interrupted(tmp_path / "a.jsonl", "the_panzer_below_the_abbey", 137, None, True)
    screen = StartScreen(house_data(), fonts, recent=saves, interrupted=away)
    surface = pygame.Surface(size)
    for i in range(len(screen.cards)):
        screen.selected = i
        assert cuts_of(fonts, lambda: screen.draw(surface)) == [], screen.cards[i].id
    spots = screen.hotspots(size)
    r = screen.rects(size)
    for s in spots:  # every button inside its area: nothing drawn off the screen or over another area
        areas = {"option": "settings", "seed": "settings", "table": "settings", "pace": "settings"}
        area = {**areas, "scenario": "list"}.get(s.action[0], "recent")
        assert r[area].contains(s.rect), s.action
    taken = [s.rect for s in spots]
    assert all(a.collidelist([b for b in taken if b is not a]) == -1 for a in taken)


@pytest.mark.parametrize("size", SIZES)
def test_editors_labels_are_not_cut_and_readable(size):
    data = house_data()
    for path in shipped_scenarios():
        if path.stem not in ("the_churchyard", "the_panzer_below_the_abbey", "first_contact"):
            continue
        fonts = theme.Fonts()
        ed = ScenarioEditor(
            ScenarioDraft.from_text(path.read_text(encoding="utf-8"), path.name),
            Path("x.yaml"),
            data,
            fonts,
            size=size,
        )
        assert ed.camera.scale >= READABLE_SCALE  # hex labels of 9 px at least (solo.render.board)
        for page in ("setting", "rules", "victory", "options"):
            ed.forms.page = page
            assert cuts_of(fonts, lambda e=ed: e.draw(pygame.Surface(size))) == [], (path.stem, page)
    for path in shipped_maps():
        fonts = theme.Fonts()
        ed = MapEditor(load_draft(path, data.terrain), Path("m.yaml"), fonts, size=size, table=data.terrain)
        assert cuts_of(fonts, lambda e=ed: e.draw(pygame.Surface(size))) == [], path.stem


def test_counter_names_use_a_fixed_abbreviation_rule():
    """The surname, else its consonant skeleton, else its first four then three letters: never '…'."""
    assert counter_name_forms("Pvt Buttermann") == ("Buttermann", "Btrmn", "Btrm", "Btr")
    assert counter_name_forms("Sgt Taylor") == ("Taylor", "Tlr")
    assert all("…" not in f for f in counter_name_forms("Obsh Brückner"))
