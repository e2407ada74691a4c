"""No label is cut at 1280x800 or 1600x1000: each screen is drawn with the registry of cut labels
on (solo.render.theme.Fonts.cuts: every text that Fonts.fit shortened with an ellipsis, or that
Fonts.wrap broke inside a word, measured with the font in use against its rectangle)."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import re
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
from solo.render.stage import Pace
from solo.render.start import StartScreen
from solo.render.words import plain, word

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


IDENTIFIER = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")


def identifiers_on(fonts, draw) -> list[str]:
    """Every ``snake_case`` word in the texts ``draw`` puts on screen (Fonts.shown registry)."""
    fonts.shown = []
    draw()
    got = [f"{m!r} in {text!r}" for text in fonts.shown for m in IDENTIFIER.findall(text)]
    fonts.shown = None
    return got


@pytest.mark.parametrize(
    "scenario", ["the_churchyard", "armour_in_the_rain", "hedgerows_in_the_rain", "night_at_the_ford"]
)
def test_a_played_game_shows_no_identifier(scenario):
    """No ``heavy_rain``, ``aimed_fire``, ``co_driver``... on any screen of a game played two
    turns at Step pace: the decisions, each Enemy step, a card's explanation, the toasts of a
    team order and an undo, review mode (ids are said in words: solo.render.words)."""
    w = Window(new_session(scenario, seed=1, data=house_data()), size=(1600, 1000), resizable=False)
    try:
        w.view.stage.set_pace(Pace.STEP)
        w.step([])
        ctl, fonts = w.controller, w.view.fonts
        g = ctl.live
        policy = SimplePolicy()
        seen: list[str] = []
        screens = toasts = explained = 0
        space = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode="")
        for i in range(3000):
            if g.pending is None or g.state.flow.turn > 2:
                break
            stage = w.view.stage
            if stage.busy:
                seen += identifiers_on(fonts, w.draw)
                card = stage.shown.first("enemy_order", "crew_order")
                if card is not None and explained < 4:
                    w.view.explain = card.seq
                    seen += identifiers_on(fonts, w.draw)
                    w.view.explain = None
                    explained += 1
                screens += 1
                w.step([space])
                continue
            if i % 2 == 0:
                seen += identifiers_on(fonts, w.draw)
                screens += 1
            key = policy(g, g.pending)
            if g.pending.kind.value == "give_order" and toasts < 2 and "_" in key:
                ctl.answer(key)
                w.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, mod=0, unicode="t")])
                seen += identifiers_on(fonts, w.draw)
                toasts += 1
                continue
            ctl.answer(key)
        if ctl.undo():
            seen += identifiers_on(fonts, w.draw)
        assert ctl.enter_review()
        seen += identifiers_on(fonts, w.draw)
        assert screens > 20
        assert seen == [], sorted(set(seen))[:20]
    finally:
        w.close()


def test_the_words_registry_says_ids_in_words():
    """solo.render.words: an order id is its name, the weather and seats their words, an id of
    a line in words; a word without an underscore stays."""
    data = house_data()
    assert word("aimed_fire", data) == "Aimed Fire"
    assert word("heavy_rain") == "heavy rain" and word("co_driver") == "co-driver"
    assert word("long_grass", data) == "Long Grass" and word("passenger_2") == "passenger 2"
    assert (
        plain("WS 5 weather heavy_rain -1 chart with_afv/G1", data)
        == "WS 5 weather heavy rain -1 chart with AFV/G1"
    )
    assert plain("Sgt Taylor: Hide 5/6") == "Sgt Taylor: Hide 5/6"


def test_the_start_screen_shows_no_identifier_but_scenario_ids(tmp_path):
    """The start screen says weather, ground and house options in words; the only ``snake_case``
    words left are the scenario ids (the name ``solo play`` takes) and file names."""
    saves = [tmp_path / "solo-first_contact-seed1.jsonl"]
    saves[0].write_text("{}")
    fonts = theme.Fonts()
    screen = StartScreen(house_data(), fonts, recent=saves)
    ids = {card.id for card in screen.cards}
    surface = pygame.Surface((1600, 1000))
    seen = []
    for i in range(len(screen.cards)):
        screen.selected = i
        fonts.shown = []
        screen.draw(surface)
        seen += [(m, t) for t in fonts.shown if "/" not in t for m in IDENTIFIER.findall(t) if m not in ids]
        fonts.shown = None
    assert seen == []
